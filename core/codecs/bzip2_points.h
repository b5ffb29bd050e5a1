// SPDX-License-Identifier: MIT
#pragma once
// Restart points in a bzip2 file: every block decodes on its own (codecs/bzip2_blocks), so
// a block's bit offset, the stream's level and the combined CRC of the blocks before it are all
// a decoder needs to start there. They are noted while the file is decoded front to back anyway
// (Bzip2Stream's recorder), and a read of a later offset starts at the block holding it. libbz2
// checks each block's CRC before a byte of it is handed out, and the stream's combined CRC is
// still checked at its end: a point that does not match its file is an error, never wrong bytes.

#include "byte_stream.h"
#include "restart_points.h"

#include <memory>
#include <optional>
#include <vector>

namespace asc {

struct Bzip2Point {
    uint64_t bit = 0; // the block magic's offset in the file, in bits
    uint64_t out = 0; // offset in the decoded stream
    uint32_t combined = 0; // the stream's combined CRC of the blocks before this one
    uint8_t level = 9; // the stream's block size digit
};

struct Bzip2PointIndex {
    std::vector<Bzip2Point> points; // by `out`, the first at 0
    uint64_t decodedSize = 0;
    // The point a read at `offset` starts from: the last at or before it.
    size_t pointFor(uint64_t offset) const;
    // Well-formed for a file of `fileSize` bytes: starts at 0, in order in both offsets,
    // levels 1-9.
    bool plausible(uint64_t fileSize) const;
};

// Collects a point per block handed out, at least `spacing` decoded bytes apart.
class Bzip2PointRecorder : public restart_points::Recorder<Bzip2Point, Bzip2PointIndex> {
public:
    explicit Bzip2PointRecorder(uint64_t spacing = uint64_t(1) << 20)
        : Recorder(spacing)
    {
    }
    void block(const Bzip2Point &point) { add(point); }
};

// The decoded stream from `offset` on, decoded from the block holding it. `where` names the file
// in errors.
Result<StreamPtr> openBzip2At(SourcePtr source, std::shared_ptr<const Bzip2PointIndex> index, uint64_t offset, const QString &where);

} // namespace asc
