// SPDX-License-Identifier: MIT
#pragma once
// A file of a filesystem as runs of blocks on its volume (ext's extents and block maps, XFS's
// extent lists and B-trees): what no run covers is a hole and reads as zeros, as do unwritten
// (preallocated) runs; a run the volume ends inside is an error, never padding.

#include "io/byte_source.h"

#include <vector>

namespace asc {

// `count` blocks from `logical` (in the file) at `physical` (on the volume).
struct BlockRun {
    uint64_t logical = 0;
    uint64_t physical = 0;
    uint64_t count = 0;
    bool zeros = false;
};

class BlockRunSource final : public ByteSource {
public:
    // `runs` sorted by `logical`, not overlapping.
    BlockRunSource(SourcePtr volume, std::vector<BlockRun> runs, uint32_t blockSize, uint64_t size, QString name);
    uint64_t size() const override { return size_; }
    QString name() const override { return name_; }
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override;
    uint64_t zeroRun(uint64_t offset) const override;

private:
    SourcePtr volume_;
    std::vector<BlockRun> runs_;
    uint32_t blockSize_;
    uint64_t size_;
    QString name_;
};

} // namespace asc
