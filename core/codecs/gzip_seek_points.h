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
#include <mutex>
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

// Collects points while GzipStream inflates. A block point may come after the member it lies in
// has ended (its search runs on another thread), so the points are put in order at finish().
// The spans' CRCs come from the inflater's own running CRC of each member (combined, zlib's
// crc32_combine): recording reads no output again.
class GzipSeekRecorder {
public:
    explicit GzipSeekRecorder(uint64_t spacing = uint64_t(8) << 20)
        : spacing_(spacing)
    {
    }
    // Whether a block point is wanted by decoded offset `out`.
    bool due(uint64_t out) const { return out >= nextDue_; }
    // A search started at `out`; the next one is due a spacing later.
    void searching(uint64_t out) { nextDue_ = out + spacing_; }
    // No block start was proven near `out`: try again a little later.
    void postpone(uint64_t out) { nextDue_ = out + spacing_ / 4; }
    // A member starts at decoded offset `out`, its header at `headerOffset` in the file.
    void memberStart(uint64_t out, uint64_t headerOffset);
    // A block point; `memberCrc` is the CRC-32 of its member's output up to it.
    void blockPoint(GzipSeekPoint point, uint32_t memberCrc);
    // A member ended at `out`, its output's CRC-32 `memberCrc`.
    void memberEnd(uint64_t out, uint32_t memberCrc);
    // The stream ended after `decodedSize` bytes: the index, or nothing when the events do not
    // add up (a member not ended, a point outside its member).
    std::optional<GzipSeekIndex> finish(uint64_t decodedSize);
    // While the stream is still being inflated, from any thread: the spans complete so far (up to
    // the latest point), an index of a stream that ends there; nothing before a second point.
    std::optional<GzipSeekIndex> sofar() const;
    uint64_t spacing() const { return spacing_; }

private:
    struct Start {
        GzipSeekPoint point;
        uint32_t crc = 0; // the member's CRC at the point
    };
    using Ends = std::vector<std::pair<uint64_t, uint32_t>>; // (out, member CRC), in order
    // The index of the first `spans` of the ordered points, the last ending at `end`.
    static std::optional<GzipSeekIndex> assemble(std::vector<Start> points, bool whole, const Ends &ends, uint64_t end);
    uint64_t spacing_;
    uint64_t nextDue_ = 0; // the inflating thread's alone
    mutable std::mutex mutex_; // points_ and ends_: sofar() reads them from another thread
    std::vector<Start> points_;
    Ends ends_;
};

// The decoded stream from `offset` on, read through `index`: each span is inflated from its point
// (ISA-L with the point's window, or a member read from its header), checked against its CRC,
// then handed out. `where` names the file in errors.
Result<StreamPtr> openGzipAt(SourcePtr source, std::shared_ptr<const GzipSeekIndex> index, uint64_t offset, const QString &where);

} // namespace asc
