// SPDX-License-Identifier: MIT
#include "lz4_stream.h"

#include "frame_points.h"
#include "io/cancel.h"

#include <lz4frame.h>

namespace asc {

Lz4Stream::Lz4Stream(StreamPtr upstream, QString where, size_t chunk, const char *inputLayer)
    : input_(std::move(upstream), chunk, inputLayer),
      where_(std::move(where))
{
    if (LZ4F_isError(LZ4F_createDecompressionContext(&context_, LZ4F_VERSION)))
        context_ = nullptr;
}

Lz4Stream::~Lz4Stream()
{
    LZ4F_freeDecompressionContext(context_);
}

Result<size_t> Lz4Stream::read(std::span<char> out)
{
    if (!context_)
        return Error::make(ErrorKind::System, where_, QStringLiteral("cannot start the lz4 decoder"));
    size_t produced = 0;
    while (produced < out.size() && !ended_) {
        if (stopRequested())
            return Error::cancelled();
        const bool between = !frame_.inside;
        auto ready = input_.frameInput(frame_, where_, "lz4");
        if (!ready)
            return std::move(ready).error();
        if (!*ready)
            break;
        if (between && recorder_)
            recorder_->frame(FramePoint{frame_.start, produced_ + produced});
        size_t room = out.size() - produced;
        size_t taken = input_.available();
        const size_t hint = LZ4F_decompress(context_, out.data() + produced, &room, input_.data(), &taken, nullptr);
        input_.consume(taken);
        produced += room;
        if (LZ4F_isError(hint)) {
            LZ4F_resetDecompressionContext(context_);
            // After a complete frame, bytes that start no frame end the data (zero padding).
            if (frames_ > 0 && frame_.start + taken == input_.offset() && QByteArrayView(LZ4F_getErrorName(hint)).endsWith("frameType_unknown")) {
                frame_.inside = false;
                ended_ = true;
                break;
            }
            return Error::format(where_, frame_.start, QStringLiteral("the lz4 frame starting here: %1").arg(QString::fromUtf8(LZ4F_getErrorName(hint))));
        }
        if (hint == 0) {
            frame_.inside = false; // a frame ended and is flushed
            ++frames_;
        } else if (room == 0 && taken == 0)
            break; // output full
    }
    produced_ += produced;
    return produced;
}

} // namespace asc
