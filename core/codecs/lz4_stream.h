// SPDX-License-Identifier: MIT
#pragma once
// lz4 decompression (liblz4's frame decoder): every frame of the stream, its block and content
// checksums checked when the frame has them, skippable frames skipped; after a complete frame,
// bytes that start no frame end the data (as zero padding does for gzip). The legacy format
// (lz4 -l, magic 02 21 4c 18) is left to libarchive.

#include "filter_input.h"

struct LZ4F_dctx_s;

namespace asc {

class FramePointRecorder;

class Lz4Stream final : public ByteStream {
public:
    // `chunk`: compressed bytes per read of the upstream; `inputLayer` names its reads in a trace.
    Lz4Stream(StreamPtr upstream, QString where, size_t chunk = size_t(1) << 20, const char *inputLayer = "decompression input");
    // Notes each frame's start as a restart point (the upstream must start at the file's first
    // byte; codecs/frame_points).
    void recordFrames(FramePointRecorder *recorder) { recorder_ = recorder; }
    ~Lz4Stream() override;
    Result<size_t> read(std::span<char> out) override;
    uint64_t consumed() const override { return input_.upstream().consumed(); }

private:
    FilterInput input_;
    QString where_;
    LZ4F_dctx_s *context_ = nullptr;
    FramePosition frame_;
    FramePointRecorder *recorder_ = nullptr;
    uint64_t produced_ = 0; // decoded bytes handed out
    uint64_t frames_ = 0; // complete ones
    bool ended_ = false;
};

} // namespace asc
