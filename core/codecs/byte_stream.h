// SPDX-License-Identifier: MIT
#pragma once
// A sequential stream of bytes: a file read front to back, or what a decompressor makes of one.
// The compression filters (gzip, xz, zstd) are streams reading from a stream, so they stack.

#include "io/byte_source.h"
#include "io/result.h"

#include <QString>
#include <memory>
#include <optional>
#include <span>

namespace asc {

class ByteStream {
public:
    virtual ~ByteStream() = default;
    // Fills up to out.size() bytes; fewer is fine, 0 only at the end of the stream.
    virtual Result<size_t> read(std::span<char> out) = 0;
    // Bytes of the file itself consumed so far (the outermost stream's position): for error
    // offsets and expansion-ratio limits.
    virtual uint64_t consumed() const = 0;
    // At most how many bytes are still to come, when known (a file read as it is): readers size
    // their buffers by it, so a small file does not get megabytes.
    virtual std::optional<uint64_t> remainingAtMost() const { return std::nullopt; }
};

// A read buffer of `chunk` bytes, or less when the stream is known to be shorter.
size_t bufferFor(const ByteStream &stream, size_t chunk);

using StreamPtr = std::unique_ptr<ByteStream>;

// A source read front to back in the caller's chunks.
class SourceStream final : public ByteStream {
public:
    explicit SourceStream(SourcePtr source, uint64_t start = 0)
        : source_(std::move(source)),
          position_(start)
    {
    }
    Result<size_t> read(std::span<char> out) override;
    uint64_t consumed() const override { return position_; }
    std::optional<uint64_t> remainingAtMost() const override;

private:
    SourcePtr source_;
    uint64_t position_;
};

// A stream whose first bytes can be looked at before they are read (to recognise a filter).
class PeekStream final : public ByteStream {
public:
    explicit PeekStream(StreamPtr inner)
        : inner_(std::move(inner))
    {
    }
    // Up to `bytes` first bytes, still to be read; fewer when the stream is shorter.
    Result<QByteArray> peek(size_t bytes);
    Result<size_t> read(std::span<char> out) override;
    uint64_t consumed() const override { return inner_->consumed(); }
    std::optional<uint64_t> remainingAtMost() const override;

private:
    StreamPtr inner_;
    QByteArray pending_;
    qsizetype pendingAt_ = 0;
};

// A stream without its first `skip` bytes (a decoder started at a restart point before the
// offset wanted).
class SkippedStream final : public ByteStream {
public:
    SkippedStream(StreamPtr inner, uint64_t skip)
        : inner_(std::move(inner)),
          skip_(skip)
    {
    }
    Result<size_t> read(std::span<char> out) override;
    uint64_t consumed() const override { return inner_->consumed(); }

private:
    StreamPtr inner_;
    uint64_t skip_;
};

// A stream with `first` in front of it (a format's leading magic, for a reader started past it).
class PrefixedStream final : public ByteStream {
public:
    PrefixedStream(QByteArray first, StreamPtr inner)
        : first_(std::move(first)),
          inner_(std::move(inner))
    {
    }
    Result<size_t> read(std::span<char> out) override;
    uint64_t consumed() const override { return inner_->consumed(); }

private:
    QByteArray first_;
    qsizetype firstAt_ = 0;
    StreamPtr inner_;
};

} // namespace asc
