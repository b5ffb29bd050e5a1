// SPDX-License-Identifier: MIT
#include "bzip2_points.h"

#include "bzip2_stream.h"
#include "restart_points.h"

namespace asc {

size_t Bzip2PointIndex::pointFor(uint64_t offset) const
{
    return restart_points::pointFor(points, offset);
}

bool Bzip2PointIndex::plausible(uint64_t fileSize) const
{
    return restart_points::plausible(
        points, decodedSize, fileSize, [](const Bzip2Point &p) { return p.bit / 8; }, [](const Bzip2Point &p) { return p.level >= 1 && p.level <= 9; });
}

Result<StreamPtr> openBzip2At(SourcePtr source, std::shared_ptr<const Bzip2PointIndex> index, uint64_t offset, const QString &where)
{
    if (!index || !index->plausible(source->size()) || offset > index->decodedSize)
        return Error::format(where, std::nullopt, QStringLiteral("the bzip2 block index is not usable"));
    const Bzip2Point &p = index->points[index->pointFor(offset)];
    Bzip2Stream::Options options;
    options.resume = Bzip2Stream::Resume{p.bit, p.level, p.combined};
    auto upstream = std::make_unique<SourceStream>(std::move(source), p.bit / 8);
    auto stream = std::make_unique<Bzip2Stream>(std::move(upstream), where, std::move(options));
    return StreamPtr(std::make_unique<SkippedStream>(std::move(stream), offset - p.out));
}

} // namespace asc
