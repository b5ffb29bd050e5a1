// SPDX-License-Identifier: MIT
#include "zstd_stream.h"

#include "frame_points.h"
#include "io/cancel.h"

#include <zstd.h>

namespace asc {

ZstdStream::ZstdStream(StreamPtr upstream, QString where, size_t chunk, const char *inputLayer)
    : input_(std::move(upstream), chunk, inputLayer),
      where_(std::move(where)),
      context_(ZSTD_createDCtx())
{
    ZSTD_DCtx_setParameter(context_, ZSTD_d_windowLogMax, 30);
}

ZstdStream::~ZstdStream()
{
    ZSTD_freeDCtx(context_);
}

Result<size_t> ZstdStream::read(std::span<char> out)
{
    if (!context_)
        return Error::make(ErrorKind::System, where_, QStringLiteral("cannot start the zstd decoder"));
    ZSTD_outBuffer output{out.data(), out.size(), 0};
    while (output.pos < output.size) {
        if (stopRequested())
            return Error::cancelled();
        const bool between = !frame_.inside;
        auto ready = input_.frameInput(frame_, where_, "zstd");
        if (!ready)
            return std::move(ready).error();
        if (!*ready)
            break;
        if (between && recorder_)
            recorder_->frame(FramePoint{frame_.start, produced_ + output.pos});
        ZSTD_inBuffer input{input_.data(), input_.available(), 0};
        const size_t rc = ZSTD_decompressStream(context_, &output, &input);
        input_.consume(input.pos);
        if (ZSTD_isError(rc))
            return Error::format(where_, frame_.start, QStringLiteral("the zstd frame starting here: %1").arg(QString::fromUtf8(ZSTD_getErrorName(rc))));
        if (rc == 0)
            frame_.inside = false; // a frame ended and is flushed
    }
    produced_ += output.pos;
    return output.pos;
}

} // namespace asc
