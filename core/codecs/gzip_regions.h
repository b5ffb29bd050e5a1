// SPDX-License-Identifier: MIT
#pragma once
// A gzip member's compressed bytes read in regions of a few MiB, for GzipPieces: each region
// keeps the bytes before it a stored block may reach back into, and finds (once, for whichever
// piece asks first) the first deflate block a piece can start at in it. Regions are numbered in
// order from the member's start; those behind the output are dropped, and their memory is
// reused for the next ones (fresh pages cost more than reading into them).

#include "filter_input.h"

#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace asc {

struct GzipRegion {
    uint64_t number = 0;
    uint64_t offset = 0; // in the upstream
    std::vector<uint8_t> bytes;
    std::vector<uint8_t> before; // the bytes before it a stored block may span, where there are
    uint64_t end() const { return offset + bytes.size(); }
    uint8_t at(uint64_t byte) const { return bytes[size_t(byte - offset)]; }
    // Where the first block a piece can start at is, in upstream bits: looked for once.
    std::optional<uint64_t> pieceStart() const;

private:
    mutable std::once_flag looked_;
    mutable std::optional<uint64_t> start_;
};
using RegionPtr = std::shared_ptr<const GzipRegion>;

class GzipRegions {
public:
    // `keepSpare`: how many regions' memory is kept for reuse.
    GzipRegions(FilterInput &input, size_t regionBytes, size_t keepSpare);

    // Reads the next region; false once the upstream has ended.
    Result<bool> readOne();
    // Reads until region `number` is held; false if the upstream ends first.
    Result<bool> readThrough(uint64_t number);
    // The region holding `byte`, if it is held.
    const GzipRegion *holding(uint64_t byte) const;
    // Region `number`, if it is held.
    RegionPtr number(uint64_t number) const;
    // The number of the region holding `byte`, or of the next one to read.
    uint64_t numberAt(uint64_t byte) const;
    uint64_t first() const { return first_; } // the number of the first held
    uint64_t end() const { return first_ + held_.size(); } // the number of the next to read
    bool upstreamEnded() const { return upstreamEnded_; }
    // Drops the regions that end `margin` bytes or more before `byte`.
    void dropBehind(uint64_t byte, uint64_t margin = 0);
    // The held bytes from `byte` on (what follows the member goes back to the input), then none.
    std::vector<uint8_t> takeFrom(uint64_t byte);

private:
    struct Spare {
        std::mutex mutex;
        std::vector<std::vector<uint8_t>> buffers;
    };

    FilterInput &input_;
    size_t regionBytes_;
    size_t keepSpare_;
    std::deque<std::shared_ptr<GzipRegion>> held_;
    uint64_t first_ = 0;
    bool upstreamEnded_ = false;
    std::vector<uint8_t> lastBytes_; // the end of the regions read so far
    // A region's bytes go back here when its last user lets go (a piece may outlive its place).
    std::shared_ptr<Spare> spare_ = std::make_shared<Spare>();
};

} // namespace asc
