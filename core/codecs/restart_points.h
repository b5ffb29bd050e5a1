// SPDX-License-Identifier: MIT
#pragma once
// What bzip2 blocks and zstd/lz4 frames share as restart points: a list by decoded offset `out`,
// kept at least a spacing apart while recorded, looked up by offset, and checked for order.

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace asc::restart_points {

// The last point at or before `offset` (the first when none is).
template <class Point>
size_t pointFor(const std::vector<Point> &points, uint64_t offset)
{
    auto after = std::upper_bound(points.begin(), points.end(), offset, [](uint64_t o, const Point &p) { return o < p.out; });
    return after == points.begin() ? 0 : size_t(after - points.begin()) - 1;
}

// Keeps `point` if it is the first (at 0) or `spacing` past the last kept.
template <class Point>
void keep(std::vector<Point> &points, const Point &point, uint64_t spacing)
{
    if (points.empty() ? point.out == 0 : point.out >= points.back().out + spacing)
        points.push_back(point);
}

// The recorded points of a stream that decoded to `decodedSize` bytes, or nothing when there is
// no restart point besides the start. What starts at the very end (lz4's zero padding, zstd's
// seek table) restarts nothing.
template <class Point>
std::optional<std::vector<Point>> finish(std::vector<Point> points, uint64_t decodedSize)
{
    while (!points.empty() && points.back().out >= decodedSize)
        points.pop_back();
    if (points.size() < 2 || points.front().out != 0)
        return std::nullopt;
    return points;
}

// Starts at 0, in order in both offsets (`position`: the byte of the file a point starts in),
// each before `fileSize` and `decodedSize`, and each `valid`.
template <class Point, class Position, class Valid>
bool plausible(const std::vector<Point> &points, uint64_t decodedSize, uint64_t fileSize, Position position, Valid valid)
{
    if (points.size() < 2 || points.front().out != 0)
        return false;
    for (size_t i = 0; i < points.size(); ++i) {
        const Point &p = points[i];
        if (!valid(p) || position(p) >= fileSize || p.out >= decodedSize)
            return false;
        if (i > 0 && (p.out <= points[i - 1].out || position(p) <= position(points[i - 1])))
            return false;
    }
    return true;
}

// Points kept a spacing apart while a stream is decoded front to back (by its reading thread),
// and read meanwhile from any other (a member opened while the first listing still runs).
// `Index` is the format's {points, decodedSize}.
template <class Point, class Index>
class Recorder {
public:
    explicit Recorder(uint64_t spacing)
        : spacing_(spacing)
    {
    }
    void add(const Point &point)
    {
        const std::lock_guard lock(mutex_);
        keep(points_, point, spacing_);
    }
    // The stream ended after `decodedSize` bytes: the index, or nothing when there is no restart
    // point besides the start (one block, one frame).
    std::optional<Index> finish(uint64_t decodedSize)
    {
        const std::lock_guard lock(mutex_);
        return indexOf(std::exchange(points_, {}), decodedSize);
    }
    // While the stream is still being decoded: the points before decoded offset `reached` (a
    // stream read from one of them goes on to the file's end).
    std::optional<Index> sofar(uint64_t reached) const
    {
        std::vector<Point> points;
        {
            const std::lock_guard lock(mutex_);
            points = points_;
        }
        return indexOf(std::move(points), reached);
    }

private:
    static std::optional<Index> indexOf(std::vector<Point> points, uint64_t end)
    {
        auto kept = restart_points::finish(std::move(points), end);
        if (!kept)
            return std::nullopt;
        return Index{std::move(*kept), end};
    }
    uint64_t spacing_;
    mutable std::mutex mutex_; // points_
    std::vector<Point> points_;
};

} // namespace asc::restart_points
