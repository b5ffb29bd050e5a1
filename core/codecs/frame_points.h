// SPDX-License-Identifier: MIT
#pragma once
// Restart points in a file of several zstd or lz4 frames (pzstd, zstd's seekable format, files
// compressed in parts and joined): each frame decodes on its own from its first byte, so its
// offset in the file and in the decoded stream are all a decoder needs to start there. They are
// noted while the file is decoded front to back anyway (the streams' recorder). A file of one
// frame (what zstd and lz4 write by default) has none: it is read from its start. A frame's
// content checksum, when it has one, is checked by the decoder as on a full read.

#include "byte_stream.h"
#include "restart_points.h"

#include <memory>
#include <optional>
#include <vector>

namespace asc {

struct FramePoint {
    uint64_t byte = 0; // the frame's first byte in the file
    uint64_t out = 0; // offset in the decoded stream
};

struct FramePointIndex {
    std::vector<FramePoint> points; // by `out`, the first at 0
    uint64_t decodedSize = 0;
    size_t pointFor(uint64_t offset) const; // the last at or before `offset`
    // Well-formed for a file of `fileSize` bytes: starts at 0, in order in both offsets.
    bool plausible(uint64_t fileSize) const;
};

// Collects frame starts at least `spacing` decoded bytes apart.
class FramePointRecorder : public restart_points::Recorder<FramePoint, FramePointIndex> {
public:
    explicit FramePointRecorder(uint64_t spacing = uint64_t(1) << 20)
        : Recorder(spacing)
    {
    }
    void frame(const FramePoint &point) { add(point); }
};

enum class FrameFormat { Zstd,
                         Lz4 };

// The decoded stream from `offset` on, decoded from the frame holding it.
Result<StreamPtr> openFramesAt(SourcePtr source, FrameFormat format, std::shared_ptr<const FramePointIndex> index, uint64_t offset, const QString &where);

} // namespace asc
