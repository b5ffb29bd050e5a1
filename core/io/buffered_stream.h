// SPDX-License-Identifier: MIT
#pragma once
// Sequential reading over a ByteSource with a consumer-side buffer of a caller-chosen capacity.
// Capacity 0 is unbuffered: every read goes to the source (a benchmark must be able to show that).
// Not thread safe: one stream per consumer. Reads block.

#include "byte_source.h"

#include <vector>

namespace asc {

class BufferedStream {
public:
    // Reads the source from `start` to its end.
    BufferedStream(SourcePtr source, size_t capacity, uint64_t start = 0);

    // Up to out.size() bytes; 0 only at the end. A read at least as large as the
    // capacity with an empty buffer goes straight into `out` (no intermediate copy).
    Result<size_t> read(std::span<char> out);
    // Exactly out.size() bytes, or a Format error naming the offset.
    Result<void> readExact(std::span<char> out);
    // The next n bytes (fewer at the end) without consuming them; valid until the next call.
    Result<std::span<const char>> peek(size_t n);
    // Up to `max` bytes without copying them: a view into the stream's buffer, consumed (valid
    // until the next call). Empty only at the end.
    Result<std::span<const char>> readView(size_t max);
    // Moves forward n bytes; skipping past the end is a Format error.
    Result<void> skip(uint64_t n);
    // Moves to an absolute position, keeping buffered bytes when they cover it.
    void seek(uint64_t position);

    uint64_t position() const { return position_; }
    uint64_t size() const { return source_->size(); }
    bool atEnd() const { return position_ >= source_->size(); }
    size_t capacity() const { return capacity_; }
    const SourcePtr &source() const { return source_; }
    // How many readAt calls reached the source, and how many bytes they returned.
    uint64_t sourceReads() const { return sourceReads_; }
    uint64_t sourceBytes() const { return sourceBytes_; }

private:
    size_t buffered() const { return end_ - begin_; }
    Result<size_t> sourceRead(uint64_t offset, std::span<char> out);
    // Makes at least min(n, remaining) bytes available in the buffer.
    Result<void> fill(size_t n);

    SourcePtr source_;
    size_t capacity_;
    std::vector<char> buffer_;
    size_t begin_ = 0; // buffer_[begin_, end_) holds bytes at position_
    size_t end_ = 0;
    uint64_t position_;
    uint64_t sourceReads_ = 0;
    uint64_t sourceBytes_ = 0;
};

} // namespace asc
