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
    auto ready = ensure(1);
    if (!ready)
        return std::move(ready).error();
    return available() > 0;
}

Result<bool> FilterInput::frameInput(FramePosition &frame, const QString &where, const char *format)
{
    auto more = fill();
    if (!more)
        return std::move(more).error();
    if (!*more) {
        if (frame.inside)
            return Error::format(where, frame.start, QStringLiteral("the %1 frame starting here: truncated: the file ends inside the frame").arg(QLatin1String(format)));
        return false;
    }
    if (!frame.inside) {
        frame.start = offset();
        frame.inside = true;
    }
    return true;
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
