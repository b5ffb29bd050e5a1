// SPDX-License-Identifier: MIT
#pragma once
// One decoder over arbitrary bytes, read to its end or an error: never a crash, a hang or
// unbounded memory. Output past 64 MiB is not read (a valid bomb is not a bug; the bound keeps
// each input quick).

#include "codecs/byte_stream.h"
#include "io/memory_source.h"

#include <cstdint>
#include <vector>

// Reads `stream` to its end or an error, up to 64 MiB of output.
inline void drainStream(asc::ByteStream &stream)
{
    std::vector<char> out(1 << 16);
    uint64_t total = 0;
    while (total < (uint64_t(64) << 20)) {
        auto got = stream.read(out);
        if (!got || *got == 0)
            break;
        total += *got;
    }
}

inline asc::StreamPtr fuzzInput(const uint8_t *data, size_t size)
{
    return std::make_unique<asc::SourceStream>(std::make_shared<asc::MemorySource>(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)), QStringLiteral("fuzz-input")));
}

template <typename Decoder>
int fuzzStream(const uint8_t *data, size_t size)
{
    Decoder decoder(fuzzInput(data, size), QStringLiteral("fuzz-input"));
    drainStream(decoder);
    return 0;
}
