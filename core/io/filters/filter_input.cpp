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

Result<size_t> FilterInput::take(std::span<uint8_t> out)
{
    size_t n = std::min(out.size(), available());
    std::memcpy(out.data(), data(), n);
    consume(n);
    while (n < out.size() && !ended_) {
        const TraceLayer layer("decompression input");
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
    std::vector<uint8_t> joined;
    joined.reserve(std::max(bytes.size() + available(), buffer_.size()));
    joined.insert(joined.end(), bytes.begin(), bytes.end());
    joined.insert(joined.end(), data(), data() + available());
    base_ = offset() - bytes.size();
    end_ = joined.size();
    at_ = 0;
    joined.resize(std::max(joined.size(), buffer_.size()));
    buffer_ = std::move(joined);
}

} // namespace asc
