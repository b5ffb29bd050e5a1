// SPDX-License-Identifier: MIT
#pragma once
// Seek points in a gzip stream (zran.c's idea), made while the stream is inflated front to back
// anyway (GzipStream::recordSeekPoints): a point is a deflate block start (its bit offset and the
// 32 KiB of output before it, which its copies may reach back into) or a member's start (no
// window needed). Each point keeps the CRC-32 of the output from it to the next point, so a
// stream started at a point is checked before any byte of it is handed out: an index that does
// not match its file is an error, never wrong bytes.

#include "byte_stream.h"

#include <QByteArray>
#include <memory>
#include <vector>

namespace asc {

struct GzipSeekPoint {
    uint64_t out = 0; // offset in the decoded stream
    uint64_t bit = 0; // a block's bit offset in the file; 8 x the header's offset for a member
    bool memberStart = false;
    uint32_t spanCrc = 0; // CRC-32 of the output from here to the next point (or the end)
    QByteArray window; // up to 32 KiB of output before `out` (block points)
};

struct GzipSeekIndex {
    std::vector<GzipSeekPoint> points; // by `out`, the first at 0
    uint64_t decodedSize = 0;
    // The point a read at `offset` starts from: the last at or before it.
    size_t pointFor(uint64_t offset) const;
    uint64_t spanEnd(size_t point) const { return point + 1 < points.size() ? points[point + 1].out : decodedSize; }
    // Well-formed: starts at 0, in order, spans no longer than `maxSpan`, windows <= 32 KiB.
    bool plausible(uint64_t maxSpan) const;
};

// Collects points while GzipStream inflates; the stream tells it what it decodes, in order.
class GzipSeekRecorder {
public:
    explicit GzipSeekRecorder(uint64_t spacing = uint64_t(8) << 20)
        : spacing_(spacing)
    {
    }
    // Whether a block point is wanted by decoded offset `out`.
    bool due(uint64_t out) const { return out >= nextDue_; }
    // No block start was proven near `out`: try again a little later.
    void postpone(uint64_t out) { nextDue_ = out + (uint64_t(1) << 20); }
    // A point at or after what was decoded so far.
    void add(GzipSeekPoint point);
    // The decoded bytes, in order (for the spans' CRCs).
    void output(const uint8_t *data, size_t size);
    // The stream ended after `decodedSize` bytes: the index, or nothing when the output did not
    // add up (a point never reached).
    std::optional<GzipSeekIndex> finish(uint64_t decodedSize);
    uint64_t spacing() const { return spacing_; }

private:
    void settle();
    uint64_t spacing_;
    uint64_t nextDue_ = 0;
    std::vector<GzipSeekPoint> points_;
    size_t open_ = 0; // the point whose span is being summed
    uint64_t out_ = 0;
    uint32_t crc_ = 0;
};

// The decoded stream from `offset` on, read through `index`: each span is inflated from its point
// (ISA-L with the point's window, or a member read from its header), checked against its CRC,
// then handed out. `where` names the file in errors.
Result<StreamPtr> openGzipAt(SourcePtr source, std::shared_ptr<const GzipSeekIndex> index, uint64_t offset, const QString &where);

} // namespace asc
