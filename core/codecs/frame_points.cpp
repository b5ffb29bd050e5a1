// SPDX-License-Identifier: MIT
#include "frame_points.h"

#include "lz4_stream.h"
#include "restart_points.h"
#include "zstd_stream.h"

namespace asc {

size_t FramePointIndex::pointFor(uint64_t offset) const
{
    return restart_points::pointFor(points, offset);
}

bool FramePointIndex::plausible(uint64_t fileSize) const
{
    return restart_points::plausible(
        points, decodedSize, fileSize, [](const FramePoint &p) { return p.byte; }, [](const FramePoint &) { return true; });
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
