// SPDX-License-Identifier: MIT
// Probe + open + list + read over arbitrary bytes, through every registered format (libarchive's
// formats, with the zip central directory and the 7z header read for compressed sizes).
// Bounded: at most 10000 entries listed and 1 MiB read per entry, 8 entries read.

#include "formats/format.h"
#include "io/memory_source.h"
#include "sandbox/process_setup.h"

#include <QByteArray>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    asc::useUtf8Locale();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    auto source = std::make_shared<asc::MemorySource>(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)),
                                                      QStringLiteral("fuzz-input"));
    auto container = asc::openContainer(source);
    if (!container)
        return 0;
    (void)(*container)->info();
    std::vector<asc::Entry> files;
    int listed = 0;
    (void)(*container)->list([&](const asc::Entry &entry) {
        if (entry.type == asc::EntryType::File && files.size() < 8)
            files.push_back(entry);
        return ++listed < 10000;
    });
    std::vector<char> buffer(64 * 1024);
    for (const asc::Entry &entry : files) {
        auto content = (*container)->open(entry);
        if (!content)
            continue;
        for (uint64_t at = 0; at < (1 << 20); at += buffer.size()) {
            auto got = (*content)->readAt(at, buffer);
            if (!got || *got == 0)
                break;
        }
    }
    return 0;
}
