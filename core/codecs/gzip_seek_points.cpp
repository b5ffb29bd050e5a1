// SPDX-License-Identifier: MIT
#include "gzip_seek_points.h"

#include "gzip_stream.h"
#include "io/cancel.h"
#include "io/trace.h"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <utility>

namespace asc {

namespace {
constexpr size_t kWindow = 32768;
constexpr size_t kCompressedChunk = size_t(1) << 20;
// No span is decoded into more memory than this (a span is the spacing, a little more).
constexpr uint64_t kMaxSpan = uint64_t(64) << 20;
} // namespace

size_t GzipSeekIndex::pointFor(uint64_t offset) const
{
    auto after = std::upper_bound(points.begin(), points.end(), offset, [](uint64_t o, const GzipSeekPoint &p) { return o < p.out; });
    return after == points.begin() ? 0 : size_t(after - points.begin()) - 1;
}

bool GzipSeekIndex::plausible(uint64_t maxSpan) const
{
    if (points.empty() || points.front().out != 0 || !points.front().memberStart)
        return false;
    for (size_t i = 0; i < points.size(); ++i) {
        const GzipSeekPoint &p = points[i];
        const uint64_t end = spanEnd(i);
        if (end < p.out || end - p.out > maxSpan || size_t(p.window.size()) > kWindow)
            return false;
        if (i > 0 && (p.out <= points[i - 1].out || p.bit <= points[i - 1].bit))
            return false;
    }
    return true;
}

void GzipSeekRecorder::memberStart(uint64_t out, uint64_t headerOffset)
{
    Start s;
    s.point.out = out;
    s.point.bit = headerOffset * 8;
    s.point.memberStart = true;
    const std::lock_guard lock(mutex_);
    points_.push_back(std::move(s));
}

void GzipSeekRecorder::blockPoint(GzipSeekPoint point, uint32_t memberCrc)
{
    point.memberStart = false;
    const std::lock_guard lock(mutex_);
    points_.push_back({std::move(point), memberCrc});
}

void GzipSeekRecorder::memberEnd(uint64_t out, uint32_t memberCrc)
{
    const std::lock_guard lock(mutex_);
    ends_.emplace_back(out, memberCrc);
}

std::optional<GzipSeekIndex> GzipSeekRecorder::finish(uint64_t decodedSize)
{
    const std::lock_guard lock(mutex_);
    if (ends_.empty() || ends_.back().first != decodedSize)
        return std::nullopt; // the last member did not end where the stream did
    return assemble(std::exchange(points_, {}), true, ends_, decodedSize);
}

std::optional<GzipSeekIndex> GzipSeekRecorder::sofar() const
{
    std::vector<Start> points;
    Ends ends;
    {
        const std::lock_guard lock(mutex_);
        points = points_; // the windows are shared, not copied
        ends = ends_;
    }
    return assemble(std::move(points), false, ends, 0);
}

std::optional<GzipSeekIndex> GzipSeekRecorder::assemble(std::vector<Start> points, bool whole, const Ends &ends, uint64_t end)
{
    // In order of offset; a member start after an empty member at the same offset serves it
    // (the later one), and no block point shares an offset with a member start.
    std::stable_sort(points.begin(), points.end(), [](const Start &a, const Start &b) { return a.point.out < b.point.out; });
    std::vector<Start> kept;
    for (Start &s : points) {
        if (!kept.empty() && kept.back().point.out == s.point.out) {
            if (!kept.back().point.memberStart || !s.point.memberStart)
                return std::nullopt;
            kept.back() = std::move(s);
            continue;
        }
        kept.push_back(std::move(s));
    }
    // So far: the stream ends at the latest point, whose own span is not known yet.
    const size_t spans = whole ? kept.size() : kept.size() - std::min<size_t>(kept.size(), 1);
    if (!whole && spans > 0)
        end = kept[spans].point.out;
    if (spans == 0)
        return std::nullopt;
    auto endCrcAt = [&](uint64_t out) -> std::optional<uint32_t> {
        auto it = std::lower_bound(ends.begin(), ends.end(), out, [](const auto &e, uint64_t o) { return e.first < o; });
        // Empty members end where they start: the last end at this offset is the member before.
        std::optional<uint32_t> crc;
        for (; it != ends.end() && it->first == out; ++it)
            crc = it->second;
        return crc;
    };
    GzipSeekIndex index;
    index.decodedSize = end;
    for (size_t i = 0; i < spans; ++i) {
        const uint64_t spanEnd = i + 1 < kept.size() ? kept[i + 1].point.out : end;
        std::optional<uint32_t> crcEnd;
        if (i + 1 < kept.size() && !kept[i + 1].point.memberStart)
            crcEnd = kept[i + 1].crc; // the same member goes on
        else
            crcEnd = endCrcAt(spanEnd); // its member ends there
        if (!crcEnd)
            return std::nullopt;
        // crc(A + B) = shift(crc(A), |B|) ^ crc(B): the span's own CRC from the member's two.
        GzipSeekPoint p = std::move(kept[i].point);
        p.spanCrc = *crcEnd ^ uint32_t(crc32_combine(kept[i].crc, 0, z_off_t(spanEnd - p.out)));
        index.points.push_back(std::move(p));
    }
    return index;
}

namespace {

class GzipSpanStream final : public ByteStream {
public:
    GzipSpanStream(SourcePtr source, std::shared_ptr<const GzipSeekIndex> index, size_t point, uint64_t skip, QString where)
        : source_(std::move(source)),
          index_(std::move(index)),
          point_(point),
          skip_(skip),
          where_(std::move(where))
    {
    }

    Result<size_t> read(std::span<char> out) override
    {
        size_t done = 0;
        while (done < out.size()) {
            if (at_ == span_.size()) {
                if (point_ >= index_->points.size())
                    break;
                auto decoded = decodeSpan(point_);
                if (!decoded)
                    return std::move(decoded).error();
                ++point_;
                at_ = size_t(std::min<uint64_t>(skip_, span_.size()));
                skip_ -= at_;
                continue;
            }
            const size_t take = std::min(out.size() - done, span_.size() - at_);
            std::memcpy(out.data() + done, span_.data() + at_, take);
            at_ += take;
            done += take;
        }
        return done;
    }
    uint64_t consumed() const override { return consumed_; }

private:
    Error mismatch(const GzipSeekPoint &p, const QString &what) const
    {
        return Error::format(where_, p.bit / 8, QStringLiteral("the index's seek point at decoded offset %1: %2").arg(p.out).arg(what));
    }

    Result<void> decodeSpan(size_t i)
    {
        const GzipSeekPoint &p = index_->points[i];
        const uint64_t length = index_->spanEnd(i) - p.out;
        if (length > kMaxSpan)
            return mismatch(p, QStringLiteral("a span of %1 bytes").arg(length));
        span_.resize(size_t(length));
        const TraceLayer layer("seek point"); // the trace shows reads that start at a point
        auto filled = p.memberStart ? memberSpan(p) : blockSpan(p);
        if (!filled)
            return std::move(filled).error();
        if (crc32_gzip_refl(0, span_.data(), span_.size()) != p.spanCrc)
            return mismatch(p, QStringLiteral("it does not decode to what was recorded (CRC-32)"));
        return {};
    }

    // From a member's header: the member (and those after it) as gzip -d reads them.
    Result<void> memberSpan(const GzipSeekPoint &p)
    {
        GzipPieces::Options one;
        one.threads = 1;
        GzipStream gzip(std::make_unique<SourceStream>(source_, p.bit / 8), where_, kCompressedChunk, one);
        size_t got = 0;
        while (got < span_.size()) {
            auto n = gzip.read(std::span(reinterpret_cast<char *>(span_.data()) + got, span_.size() - got));
            if (!n)
                return std::move(n).error();
            if (*n == 0)
                return mismatch(p, QStringLiteral("the members end early"));
            got += *n;
        }
        consumed_ = gzip.consumed();
        return {};
    }

    // From a block start: ISA-L with the point's window as its dictionary.
    Result<void> blockSpan(const GzipSeekPoint &p)
    {
        auto state = std::make_unique<inflate_state>();
        isal_inflate_init(state.get());
        state->crc_flag = ISAL_DEFLATE;
        if (!p.window.isEmpty() && isal_inflate_set_dict(state.get(), reinterpret_cast<uint8_t *>(const_cast<char *>(p.window.constData())), uint32_t(p.window.size())) != COMP_OK)
            return mismatch(p, QStringLiteral("ISA-L refused its window"));
        uint64_t at = p.bit / 8;
        std::vector<uint8_t> in(kCompressedChunk);
        if (p.bit % 8) {
            auto first = source_->readAt(at, std::span(reinterpret_cast<char *>(in.data()), 1));
            if (!first)
                return std::move(first).error();
            if (*first != 1)
                return mismatch(p, QStringLiteral("the file ends before it"));
            state->read_in = in[0] >> (p.bit % 8);
            state->read_in_length = int32_t(8 - p.bit % 8);
            ++at;
        }
        state->next_out = span_.data();
        state->avail_out = uint32_t(span_.size());
        while (state->avail_out > 0) {
            if (stopRequested())
                return Error::cancelled();
            if (state->avail_in == 0) {
                auto n = source_->readAt(at, std::span(reinterpret_cast<char *>(in.data()), in.size()));
                if (!n)
                    return std::move(n).error();
                if (*n == 0)
                    return mismatch(p, QStringLiteral("the file ends inside its span"));
                at += *n;
                state->next_in = in.data();
                state->avail_in = uint32_t(*n);
            }
            const int rc = isal_inflate(state.get());
            if (rc < 0)
                return mismatch(p, QStringLiteral("ISA-L: %1").arg(isalErrorText(rc)));
            if (state->block_state == ISAL_BLOCK_FINISH && state->avail_out > 0)
                return mismatch(p, QStringLiteral("its member ends early"));
        }
        consumed_ = at;
        return {};
    }

    SourcePtr source_;
    std::shared_ptr<const GzipSeekIndex> index_;
    size_t point_;
    uint64_t skip_;
    QString where_;
    std::vector<uint8_t> span_;
    size_t at_ = 0;
    uint64_t consumed_ = 0;
};

} // namespace

Result<StreamPtr> openGzipAt(SourcePtr source, std::shared_ptr<const GzipSeekIndex> index, uint64_t offset, const QString &where)
{
    if (!index || !index->plausible(kMaxSpan))
        return Error::format(where, std::nullopt, QStringLiteral("the gzip index is not usable"));
    if (offset > index->decodedSize)
        return Error::format(where, std::nullopt, QStringLiteral("offset %1 lies past the decoded stream's %2 bytes").arg(offset).arg(index->decodedSize));
    const size_t point = index->pointFor(offset);
    const uint64_t skip = offset - index->points[point].out;
    return StreamPtr(std::make_unique<GzipSpanStream>(std::move(source), std::move(index), point, skip, where));
}

} // namespace asc
