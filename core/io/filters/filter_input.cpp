// SPDX-License-Identifier: MIT
#include "io/trace.h"
#include "filter_input.h"

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

} // namespace asc
