// SPDX-License-Identifier: MIT
#include "frame_points.h"

#include "lz4_stream.h"
#include "zstd_stream.h"

#include <algorithm>

namespace asc {

size_t FramePointIndex::pointFor(uint64_t offset) const
{
    auto after = std::upper_bound(points.begin(), points.end(), offset, [](uint64_t o, const FramePoint &p) { return o < p.out; });
    return after == points.begin() ? 0 : size_t(after - points.begin()) - 1;
}

bool FramePointIndex::plausible(uint64_t fileSize) const
{
    if (points.size() < 2 || points.front().out != 0)
        return false;
    for (size_t i = 0; i < points.size(); ++i) {
        const FramePoint &p = points[i];
        if (p.byte >= fileSize || p.out >= decodedSize)
            return false;
        if (i > 0 && (p.out <= points[i - 1].out || p.byte <= points[i - 1].byte))
            return false;
    }
    return true;
}

void FramePointRecorder::frame(const FramePoint &point)
{
    if (points_.empty() ? point.out == 0 : point.out >= points_.back().out + spacing_)
        points_.push_back(point);
}

std::optional<FramePointIndex> FramePointRecorder::finish(uint64_t decodedSize)
{
    FramePointIndex index;
    index.points = std::move(points_);
    index.decodedSize = decodedSize;
    points_.clear();
    // What starts at the very end (lz4's zero padding, zstd's seek table) restarts nothing.
    while (!index.points.empty() && index.points.back().out >= decodedSize)
        index.points.pop_back();
    if (index.points.size() < 2 || index.points.front().out != 0)
        return std::nullopt; // one frame: nothing to restart at but the start
    return index;
}

Result<StreamPtr> openFramesAt(SourcePtr source, FrameFormat format, std::shared_ptr<const FramePointIndex> index, uint64_t offset, const QString &where)
{
    if (!index || !index->plausible(source->size()) || offset > index->decodedSize)
        return Error::format(where, std::nullopt, QStringLiteral("the frame index is not usable"));
    const FramePoint &p = index->points[index->pointFor(offset)];
    auto upstream = std::make_unique<SourceStream>(std::move(source), p.byte);
    StreamPtr frames;
    if (format == FrameFormat::Zstd)
        frames = std::make_unique<ZstdStream>(std::move(upstream), where, size_t(1) << 20, "seek point");
    else
        frames = std::make_unique<Lz4Stream>(std::move(upstream), where, size_t(1) << 20, "seek point");
    return StreamPtr(std::make_unique<SkippedStream>(std::move(frames), offset - p.out));
}

} // namespace asc
