// SPDX-License-Identifier: MIT
#pragma once
// One decoder over arbitrary bytes, read to its end or an error: never a crash, a hang or
// unbounded memory. Output past 64 MiB is not read (a valid bomb is not a bug; the bound keeps
// each input quick).

#include "io/filters/byte_stream.h"
#include "io/memory_source.h"

#include <cstdint>
#include <vector>

template <typename Decoder>
int fuzzStream(const uint8_t *data, size_t size)
{
    auto source = std::make_shared<asc::MemorySource>(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)), QStringLiteral("fuzz-input"));
    Decoder decoder(std::make_unique<asc::SourceStream>(source), QStringLiteral("fuzz-input"));
    std::vector<char> out(1 << 16);
    uint64_t total = 0;
    while (total < (uint64_t(64) << 20)) {
        auto got = decoder.read(out);
        if (!got || *got == 0)
            break;
        total += *got;
    }
    return 0;
}
