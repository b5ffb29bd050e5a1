// SPDX-License-Identifier: MIT
#include "io/trace.h"
#include "filter_input.h"

#include <cstring>

namespace asc {

FilterInput::FilterInput(StreamPtr upstream, size_t chunk)
    : upstream_(std::move(upstream)),
      buffer_(chunk)
{
}

Result<bool> FilterInput::fill()
{
    if (at_ < end_)
        return true;
    if (ended_)
        return false;
    base_ += end_;
    at_ = end_ = 0;
    const TraceLayer layer("decompression input");
    auto got = upstream_->read(std::span(reinterpret_cast<char *>(buffer_.data()), buffer_.size()));
    if (!got)
        return std::move(got).error();
    end_ = *got;
    ended_ = *got == 0;
    return !ended_;
}

Result<void> FilterInput::ensure(size_t bytes)
{
    while (available() < bytes && !ended_) {
        // Move what is left to the front, then read after it.
        std::memmove(buffer_.data(), buffer_.data() + at_, end_ - at_);
        base_ += at_;
        end_ -= at_;
        at_ = 0;
        if (buffer_.size() < bytes)
            buffer_.resize(bytes);
        const TraceLayer layer("decompression input");
        auto got = upstream_->read(std::span(reinterpret_cast<char *>(buffer_.data() + end_), buffer_.size() - end_));
        if (!got)
            return std::move(got).error();
        end_ += *got;
        ended_ = *got == 0;
    }
    return {};
}

} // namespace asc
