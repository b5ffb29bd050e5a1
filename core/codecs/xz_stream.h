// SPDX-License-Identifier: MIT
#pragma once
// xz decompression with liblzma's multi-threaded decoder: the blocks of a multi-block stream
// (xz -T0, pixz) are decoded on every core; a single-block stream decodes on one, as it must.
// Concatenated streams are read whole; memory is bounded (a stream that asks for more than the
// limit is an error, not an allocation). A check type liblzma cannot verify is an error: bytes
// nobody checked are not delivered as if they were.
// lzip (.lz) goes through liblzma's lzip decoder, which checks what lzip itself checks (version,
// dictionary size, each member's CRC-32 and sizes, a truncated member after the first).

#include "filter_input.h"

#include <lzma.h>

namespace asc {

class XzStream final : public ByteStream {
public:
    enum class Container { Xz,
                           Lzip };
    // `threads` 0: one per core; 1: the single-threaded decoder. `chunk`: compressed bytes per read.
    XzStream(StreamPtr upstream, QString where, unsigned threads = 0, size_t chunk = size_t(1) << 20,
             Container container = Container::Xz);
    ~XzStream() override;
    Result<size_t> read(std::span<char> out) override;
    uint64_t consumed() const override { return input_.upstream().consumed(); }
    // Bytes the decoder may use before it refuses (threads shrink first, then it fails).
    static constexpr uint64_t kMemoryLimit = uint64_t(1) << 30;

private:
    FilterInput input_;
    QString where_;
    QString name_; // "xz" or "lzip", in errors
    lzma_stream stream_ = LZMA_STREAM_INIT;
    std::optional<Error> startError_;
    bool done_ = false;
};

} // namespace asc
