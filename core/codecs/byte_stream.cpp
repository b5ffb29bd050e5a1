// SPDX-License-Identifier: MIT
#include "byte_stream.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace asc {

Result<size_t> SourceStream::read(std::span<char> out)
{
    auto got = source_->readAt(position_, out);
    if (got)
        position_ += *got;
    return got;
}

size_t bufferFor(const ByteStream &stream, size_t chunk)
{
    const auto left = stream.remainingAtMost();
    return left ? size_t(std::min<uint64_t>(chunk, std::max<uint64_t>(*left, 4096))) : chunk;
}

std::optional<uint64_t> SourceStream::remainingAtMost() const
{
    const uint64_t size = source_->size();
    return size > position_ ? size - position_ : 0;
}

std::optional<uint64_t> PeekStream::remainingAtMost() const
{
    const auto inner = inner_->remainingAtMost();
    if (!inner)
        return std::nullopt;
    return *inner + uint64_t(pending_.size() - pendingAt_);
}

Result<QByteArray> PeekStream::peek(size_t bytes)
{
    while (size_t(pending_.size() - pendingAt_) < bytes) {
        const qsizetype have = pending_.size();
        pending_.resize(have + qsizetype(bytes));
        auto got = inner_->read(std::span(pending_.data() + have, bytes));
        if (!got)
            return std::move(got).error();
        pending_.resize(have + qsizetype(*got));
        if (*got == 0)
            break;
    }
    return pending_.mid(pendingAt_, qsizetype(bytes));
}

Result<size_t> PeekStream::read(std::span<char> out)
{
    if (pendingAt_ < pending_.size()) {
        const size_t n = std::min(out.size(), size_t(pending_.size() - pendingAt_));
        std::memcpy(out.data(), pending_.constData() + pendingAt_, n);
        pendingAt_ += qsizetype(n);
        if (pendingAt_ < pending_.size())
            return n;
        pending_.clear();
        pendingAt_ = 0;
        // The rest from the stream, so that the first read is not just the few peeked bytes.
        if (n == out.size())
            return n;
        auto more = inner_->read(out.subspan(n));
        if (!more)
            return std::move(more).error();
        return n + *more;
    }
    return inner_->read(out);
}

Result<size_t> SkippedStream::read(std::span<char> out)
{
    std::vector<char> scratch;
    while (skip_ > 0) {
        scratch.resize(size_t(std::min<uint64_t>(skip_, 1 << 20)));
        auto got = inner_->read(scratch);
        if (!got)
            return std::move(got).error();
        if (*got == 0)
            return size_t(0);
        skip_ -= *got;
    }
    return inner_->read(out);
}

Result<size_t> PrefixedStream::read(std::span<char> out)
{
    if (firstAt_ < first_.size()) {
        const size_t n = std::min(out.size(), size_t(first_.size() - firstAt_));
        std::copy_n(first_.constData() + firstAt_, n, out.data());
        firstAt_ += qsizetype(n);
        return n;
    }
    return inner_->read(out);
}

} // namespace asc
