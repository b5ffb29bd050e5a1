// SPDX-License-Identifier: MIT
#pragma once
// What a single compressed file records about its content, read from headers and trailers
// without decompressing: gzip (MTIME; ISIZE when the stream is one member under 4 GiB, bgzip's
// blocks summed), xz (the stream indexes), lzip (member trailers), zstd (frame content sizes).
// Other filters record nothing: size stays unknown (CLI.md: `null`), never 0.

#include "io/byte_source.h"

#include <cstdint>
#include <optional>

namespace asc {

struct CompressedFacts {
    std::optional<uint64_t> size; // decompressed bytes
    std::optional<int64_t> mtime; // seconds since the epoch
};

CompressedFacts readCompressedFacts(const ByteSource &source);

} // namespace asc
