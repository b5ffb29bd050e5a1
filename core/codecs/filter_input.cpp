// SPDX-License-Identifier: MIT
#include "io/trace.h"
#include "filter_input.h"

#include <cstring>

namespace asc {

FilterInput::FilterInput(StreamPtr upstream, size_t chunk, const char *layer)
    : upstream_(std::move(upstream)),
      capacity_(bufferFor(*upstream_, chunk)),
      layer_(layer)
{
    buffer_ = std::make_unique_for_overwrite<uint8_t[]>(capacity_);
}

void FilterInput::compact(size_t capacity)
{
    const size_t left = end_ - at_;
    if (capacity > capacity_) {
        auto bigger = std::make_unique_for_overwrite<uint8_t[]>(capacity);
        std::memcpy(bigger.get(), buffer_.get() + at_, left);
        buffer_ = std::move(bigger);
        capacity_ = capacity;
    } else {
        std::memmove(buffer_.get(), buffer_.get() + at_, left);
    }
    base_ += at_;
    end_ = left;
    at_ = 0;
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
        compact(std::max(bytes, capacity_));
        const TraceLayer layer(layer_);
        const size_t room = capacity_ - end_;
        auto got = upstream_->read(std::span(reinterpret_cast<char *>(buffer_.get() + end_), room));
        if (!got)
            return std::move(got).error();
        end_ += *got;
        ended_ = *got == 0;
    }
    return {};
}

Result<size_t> FilterInput::take(std::span<uint8_t> out)
{
    size_t n = std::min(out.size(), available());
    std::memcpy(out.data(), data(), n);
    consume(n);
    while (n < out.size() && !ended_) {
        const TraceLayer layer(layer_);
        auto got = upstream_->read(std::span(reinterpret_cast<char *>(out.data() + n), out.size() - n));
        if (!got)
            return std::move(got).error();
        n += *got;
        base_ += *got; // read past the (empty) buffer
        ended_ = *got == 0;
    }
    return n;
}

void FilterInput::putBack(std::span<const uint8_t> bytes)
{
    // They were consumed just before at_: room in front means they go back in place.
    if (bytes.size() <= at_) {
        at_ -= bytes.size();
        std::memmove(buffer_.get() + at_, bytes.data(), bytes.size());
        return;
    }
    const size_t left = available();
    auto joined = std::make_unique_for_overwrite<uint8_t[]>(std::max(bytes.size() + left, capacity_));
    std::memcpy(joined.get(), bytes.data(), bytes.size());
    std::memcpy(joined.get() + bytes.size(), data(), left);
    base_ = offset() - bytes.size();
    end_ = bytes.size() + left;
    at_ = 0;
    capacity_ = std::max(end_, capacity_);
    buffer_ = std::move(joined);
}

} // namespace asc
