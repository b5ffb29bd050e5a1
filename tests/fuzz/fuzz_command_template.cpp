// SPDX-License-Identifier: MIT
// `bench --command 'NAME=TEMPLATE'` (bench/command/command_template) on arbitrary text: the word
// splitting (quotes, backslashes), the placeholders and their {{ }} escapes, and the expansion of
// what parsed for a file name with spaces and quotes in it.

#include "bench/command/command_template.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace asc;
    if (size == 0)
        return 0;
    // The first byte picks --shell and whether a buffer placeholder is required (trace).
    const bool shell = data[0] & 1;
    const bool needsBuffer = data[0] & 2;
    const QString spec = QString::fromUtf8(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));
    (void)splitCommandWords(spec);
    auto parsed = parseCommandTemplate(spec, shell, needsBuffer);
    if (!parsed)
        return 0;
    const QString file = QStringLiteral("/tmp/a file's \"name\" {buffer}");
    for (uint64_t buffer : {uint64_t(4096), uint64_t(16) << 20, uint64_t(1) << 40}) {
        const QStringList argv = parsed->expand(file, buffer);
        // One argument per word without a shell; a shell gets its one script.
        if (argv.isEmpty() || (!parsed->shell && argv.size() != parsed->words.size()))
            std::abort();
        (void)parsed->expandedText(file, buffer);
    }
    return 0;
}
