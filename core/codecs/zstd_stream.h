// SPDX-License-Identifier: MIT
#pragma once
// zstd decompression (libzstd's streaming decoder): every frame of the stream, with or without
// a recorded content size, skippable frames skipped; windows larger than 1 GiB are refused.

#include "filter_input.h"

struct ZSTD_DCtx_s;

namespace asc {

class FramePointRecorder;

class ZstdStream final : public ByteStream {
public:
    // `chunk`: compressed bytes per read of the upstream; `inputLayer` names its reads in a trace.
    ZstdStream(StreamPtr upstream, QString where, size_t chunk = size_t(1) << 20, const char *inputLayer = "decompression input");
    // Notes each frame's start as a restart point (the upstream must start at the file's first
    // byte; codecs/frame_points).
    void recordFrames(FramePointRecorder *recorder) { recorder_ = recorder; }
    ~ZstdStream() override;
    Result<size_t> read(std::span<char> out) override;
    uint64_t consumed() const override { return input_.upstream().consumed(); }

private:
    FilterInput input_;
    QString where_;
    ZSTD_DCtx_s *context_;
    FramePosition frame_;
    FramePointRecorder *recorder_ = nullptr;
    uint64_t produced_ = 0; // decoded bytes handed out
};

} // namespace asc
