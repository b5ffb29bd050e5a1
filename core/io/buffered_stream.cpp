// SPDX-License-Identifier: MIT
#include "buffered_stream.h"
#include "io/trace.h"

#include <algorithm>
#include <cstring>

namespace asc {

BufferedStream::BufferedStream(SourcePtr source, size_t capacity, uint64_t start)
    : source_(std::move(source)),
      capacity_(capacity),
      buffer_(capacity),
      position_(start)
{
}

Result<size_t> BufferedStream::sourceRead(uint64_t offset, std::span<char> out)
{
    ++sourceReads_;
    const TraceLayer layer("buffered stream");
    auto got = source_->readAt(offset, out);
    if (got)
        sourceBytes_ += *got;
    return got;
}

Result<size_t> BufferedStream::read(std::span<char> out)
{
    if (out.empty())
        return size_t(0);
    if (buffered() == 0) {
        if (out.size() >= capacity_) {
            auto got = sourceRead(position_, out);
            if (got)
                position_ += *got;
            return got;
        }
        begin_ = end_ = 0;
        auto got = sourceRead(position_, std::span(buffer_.data(), capacity_));
        if (!got)
            return got;
        end_ = *got;
    }
    const size_t n = std::min(out.size(), buffered());
    std::memcpy(out.data(), buffer_.data() + begin_, n);
    begin_ += n;
    position_ += n;
    return n;
}

Result<void> BufferedStream::readExact(std::span<char> out)
{
    const uint64_t startedAt = position_;
    size_t done = 0;
    while (done < out.size()) {
        auto got = read(out.subspan(done));
        if (!got)
            return std::move(got).error();
        if (*got == 0)
            return Error::format(source_->name(), startedAt,
                                 QStringLiteral("unexpected end of data: wanted %1 bytes, %2 available")
                                     .arg(out.size())
                                     .arg(done));
        done += *got;
    }
    return {};
}

Result<void> BufferedStream::fill(size_t n)
{
    if (buffered() >= n)
        return {};
    // Move what is left to the front and grow the buffer if a peek needs more than the capacity.
    if (begin_ > 0) {
        std::memmove(buffer_.data(), buffer_.data() + begin_, buffered());
        end_ -= begin_;
        begin_ = 0;
    }
    const size_t room = std::max(capacity_, n);
    if (buffer_.size() < room)
        buffer_.resize(room);
    while (end_ < n) {
        auto got = sourceRead(position_ + end_, std::span(buffer_.data() + end_, room - end_));
        if (!got)
            return std::move(got).error();
        if (*got == 0)
            break;
        end_ += *got;
    }
    return {};
}

Result<std::span<const char>> BufferedStream::peek(size_t n)
{
    if (auto filled = fill(n); !filled)
        return std::move(filled).error();
    return std::span<const char>(buffer_.data() + begin_, std::min(n, buffered()));
}

Result<std::span<const char>> BufferedStream::readView(size_t max)
{
    if (max == 0)
        return std::span<const char>();
    if (buffered() == 0) {
        // Refill with one source read: the capacity, or (unbuffered) just what is asked.
        const size_t want = capacity_ ? capacity_ : max;
        if (buffer_.size() < want)
            buffer_.resize(want);
        begin_ = end_ = 0;
        auto got = sourceRead(position_, std::span(buffer_.data(), want));
        if (!got)
            return std::move(got).error();
        end_ = *got;
    }
    const size_t n = std::min(max, buffered());
    std::span<const char> view(buffer_.data() + begin_, n);
    begin_ += n;
    position_ += n;
    return view;
}

Result<void> BufferedStream::skip(uint64_t n)
{
    const uint64_t inBuffer = std::min<uint64_t>(n, buffered());
    begin_ += size_t(inBuffer);
    position_ += inBuffer;
    const uint64_t rest = n - inBuffer;
    if (rest == 0)
        return {};
    if (position_ + rest > source_->size() || position_ + rest < position_)
        return Error::format(source_->name(), position_,
                             QStringLiteral("cannot skip %1 bytes: only %2 left")
                                 .arg(rest)
                                 .arg(source_->size() - std::min(position_, source_->size())));
    position_ += rest;
    return {};
}

void BufferedStream::seek(uint64_t position)
{
    const uint64_t bufferStart = position_ - begin_;
    if (position >= bufferStart && position <= bufferStart + end_) {
        begin_ = size_t(position - bufferStart);
    } else {
        begin_ = end_ = 0;
    }
    position_ = position;
}

} // namespace asc
