// SPDX-License-Identifier: MIT
// What a single compressed file records (gzip/bgzip headers and trailers, xz indexes, lzip
// trailers, zstd frame and block headers), parsed from arbitrary bytes: never a crash, a hang
// or unbounded memory, whatever the fields claim.

#include "formats/archive/compressed_facts.h"
#include "io/memory_source.h"

#include <QByteArray>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const asc::MemorySource source(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)), QStringLiteral("fuzz-input"));
    (void)asc::readCompressedFacts(source);
    return 0;
}
