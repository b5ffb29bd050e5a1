// SPDX-License-Identifier: MIT
#include "bzip2_points.h"

#include "bzip2_stream.h"

#include <algorithm>

namespace asc {

size_t Bzip2PointIndex::pointFor(uint64_t offset) const
{
    auto after = std::upper_bound(points.begin(), points.end(), offset, [](uint64_t o, const Bzip2Point &p) { return o < p.out; });
    return after == points.begin() ? 0 : size_t(after - points.begin()) - 1;
}

bool Bzip2PointIndex::plausible(uint64_t fileSize) const
{
    if (points.size() < 2 || points.front().out != 0)
        return false;
    for (size_t i = 0; i < points.size(); ++i) {
        const Bzip2Point &p = points[i];
        if (p.level < 1 || p.level > 9 || p.bit / 8 >= fileSize || p.out >= decodedSize)
            return false;
        if (i > 0 && (p.out <= points[i - 1].out || p.bit <= points[i - 1].bit))
            return false;
    }
    return true;
}

void Bzip2PointRecorder::block(const Bzip2Point &point)
{
    if (points_.empty() ? point.out == 0 : point.out >= points_.back().out + spacing_)
        points_.push_back(point);
}

std::optional<Bzip2PointIndex> Bzip2PointRecorder::finish(uint64_t decodedSize)
{
    Bzip2PointIndex index;
    index.points = std::move(points_);
    index.decodedSize = decodedSize;
    points_.clear();
    // What starts at the very end (lz4's zero padding, zstd's seek table) restarts nothing.
    while (!index.points.empty() && index.points.back().out >= decodedSize)
        index.points.pop_back();
    if (index.points.size() < 2 || index.points.front().out != 0)
        return std::nullopt; // one block: nothing to restart at but the start
    return index;
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
