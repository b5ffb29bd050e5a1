// SPDX-License-Identifier: MIT
#pragma once
// The compressed side of a decoder: its upstream stream, read in large chunks into one buffer,
// with the offset (in the upstream's bytes) of what is consumed, for errors.

#include "byte_stream.h"

#include <cstdint>
#include <memory>
#include <span>

namespace asc {

// Where the decoder of a stream of frames (zstd, lz4) is: between frames, or inside the one that
// started at `start` (errors name it).
struct FramePosition {
    bool inside = false;
    uint64_t start = 0;
};

class FilterInput {
public:
    // `layer` names its reads in a trace (a string literal).
    explicit FilterInput(StreamPtr upstream, size_t chunk = size_t(1) << 20, const char *layer = "decompression input");

    // Reads the next chunk when everything before has been consumed; false at the upstream's end.
    Result<bool> fill();
    // Input for the next step of decoding a stream of frames: true with bytes available (a frame
    // starting here is marked started), false at the end between frames, an error naming the
    // frame when the file ends inside one. `format` names the frames in that error ("zstd").
    Result<bool> frameInput(FramePosition &frame, const QString &where, const char *format);
    // Makes at least `bytes` bytes available in one piece, keeping what is not consumed (fewer
    // only at the upstream's end).
    Result<void> ensure(size_t bytes);
    const uint8_t *data() const { return buffer_.get() + at_; }
    size_t available() const { return end_ - at_; }
    void consume(size_t n) { at_ += n; }
    // Moves the next bytes into `out`: what is buffered, then straight from the upstream, until
    // `out` is full or the upstream ends. How many.
    Result<size_t> take(std::span<uint8_t> out);
    // Puts `bytes`, taken from just before offset(), back in front of what is not consumed.
    void putBack(std::span<const uint8_t> bytes);
    // Upstream offset of data().
    uint64_t offset() const { return base_ + at_; }
    bool ended() const { return ended_; }
    const ByteStream &upstream() const { return *upstream_; }

private:
    // Moves what is not consumed to the front of a buffer of at least `capacity` bytes.
    void compact(size_t capacity);

    StreamPtr upstream_;
    // Not zero-filled: a small stream touches only the pages it reads into (a zeroed megabyte
    // per decoder was most of a fuzz run). Reads are of the whole chunk: benchmarks set it.
    std::unique_ptr<uint8_t[]> buffer_;
    size_t capacity_ = 0;
    size_t at_ = 0;
    size_t end_ = 0;
    uint64_t base_ = 0;
    bool ended_ = false;
    const char *layer_;
};

} // namespace asc
