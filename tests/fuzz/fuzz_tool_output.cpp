// SPDX-License-Identifier: MIT
// What the external tools' jail sends back (sandbox/tool_stream.h: frames, then how the tool
// ended) and what 7-Zip lists (formats/archive/seven_zip_listing.h), on arbitrary bytes: the first
// byte picks which. A jailed 7zz reads hostile archives, so its output is untrusted input too.

#include "formats/archive/seven_zip_listing.h"
#include "sandbox/tool_stream.h"

#include <cstdint>
#include <cstdlib>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace asc;
    if (size == 0)
        return 0;
    const QByteArray bytes(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));
    if (data[0] & 1) {
        auto listing = parseSevenZipListing(bytes, QStringLiteral("fuzz.7z"));
        if (listing)
            for (const SevenZipItem &item : listing->items)
                if (item.entry.type != EntryType::File && item.entry.size != 0)
                    std::abort(); // only files have a content size
        return 0;
    }
    // The frames through a pipe, as the worker reads them (inputs fit in its buffer).
    int ends[2];
    if (bytes.size() > 60000 || ::pipe(ends) != 0)
        return 0;
    if (::write(ends[1], bytes.constData(), size_t(bytes.size())) != bytes.size())
        std::abort();
    ::close(ends[1]);
    ToolStream stream(ends[0], QStringLiteral("fuzz"));
    char buffer[4096];
    uint64_t total = 0;
    for (;;) {
        auto got = stream.read(buffer);
        if (!got || *got == 0)
            break;
        total += *got;
        if (total > uint64_t(bytes.size()))
            std::abort(); // never more content than was sent
    }
    if (stream.ended())
        (void)stream.howItEnded();
    return 0;
}
