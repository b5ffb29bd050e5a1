// SPDX-License-Identifier: MIT
#include "gzip_stream.h"

#include "deflate_blocks.h"
#include "gzip_block_search.h"
#include "io/cancel.h"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <optional>

namespace asc {

GzipStream::GzipStream(StreamPtr upstream, QString where, size_t chunk, std::optional<GzipPieces::Options> pieces)
    : input_(std::move(upstream), chunk),
      where_(std::move(where)),
      piecesOptions_(pieces.value_or(GzipPieces::defaults())),
      state_(std::make_unique<inflate_state>())
{
}

GzipStream::~GzipStream()
{
    if (search_.valid())
        search_.wait(); // its copies are its own; only its thread is waited for
}

Error GzipStream::fail(const QString &what) const
{
    return Error::format(where_, memberStart_, QStringLiteral("the gzip member starting here: %1").arg(what));
}

// The length of the gzip header at the start of `p`, if all of it is among the `n` bytes.
static std::optional<size_t> gzipHeaderLength(const uint8_t *p, size_t n)
{
    if (n < 10)
        return std::nullopt;
    const uint8_t flags = p[3];
    size_t at = 10;
    if (flags & 0x04) { // FEXTRA: a length, then that many bytes
        if (n < at + 2)
            return std::nullopt;
        at += 2 + (size_t(p[at]) | size_t(p[at + 1]) << 8);
    }
    for (const uint8_t zeroTerminated : {uint8_t(0x08), uint8_t(0x10)}) { // FNAME, FCOMMENT
        if (!(flags & zeroTerminated))
            continue;
        if (at >= n)
            return std::nullopt;
        const void *end = std::memchr(p + at, 0, n - at);
        if (!end)
            return std::nullopt;
        at = size_t(static_cast<const uint8_t *>(end) - p) + 1;
    }
    if (flags & 0x02) // FHCRC
        at += 2;
    if (at > n)
        return std::nullopt;
    return at;
}

// A BGZF header (bgzip, samtools): its extra field has a "BC" subfield, and the member is at most
// 64 KiB, too small to cut.
static bool bgzfHeader(const uint8_t *p, size_t n)
{
    if (!(p[3] & 0x04) || n < 12)
        return false;
    const size_t extra = size_t(p[10]) | size_t(p[11]) << 8;
    for (size_t at = 12; at + 4 <= std::min(n, 12 + extra);) {
        const size_t length = size_t(p[at + 2]) | size_t(p[at + 3]) << 8;
        if (p[at] == 'B' && p[at + 1] == 'C')
            return true;
        at += 4 + length;
    }
    return false;
}

Result<void> GzipStream::wholeHeader()
{
    for (size_t want = 4096;; want *= 2) {
        if (gzipHeaderLength(input_.data(), input_.available()))
            return {};
        if (input_.ended())
            return Error::format(where_, input_.offset(), QStringLiteral("the gzip member starting here: truncated: the file ends inside its header"));
        if (want > kMaxHeader)
            return Error::format(where_, input_.offset(), QStringLiteral("the gzip member starting here: its header (name, comment, extra field) is longer than %1 bytes").arg(kMaxHeader));
        auto more = input_.ensure(input_.available() + want);
        if (!more)
            return std::move(more).error();
    }
}

GzipPieces::Counts GzipStream::pieceCounts() const
{
    GzipPieces::Counts c = pieceCounts_;
    if (pieces_)
        c += pieces_->counts();
    return c;
}

// With threads to cut on, a member goes to GzipPieces; one whose header ISA-L should judge (not
// deflate), and every member without threads, to ISA-L here.
Result<void> GzipStream::startMember()
{
    memberStart_ = input_.offset();
    memberOut_ = 0;
    inMember_ = true;
    if (recorder_)
        recorder_->memberStart(totalOut_, memberStart_);
    const auto header = gzipHeaderLength(input_.data(), input_.available());
    if (piecesOptions_.threads >= 2 && header && input_.data()[2] == 8 && (input_.data()[3] & 0xe0) == 0 && !bgzfHeader(input_.data(), *header)) {
        // GzipPieces inflates the start as it is read and cuts the rest only once a few MiB are
        // out, so a small member or a reader that looks at the start costs what ISA-L here does.
        input_.consume(*header);
        pieces_ = std::make_unique<GzipPieces>(input_, where_, memberStart_, piecesOptions_);
        return {};
    }
    isal_inflate_init(state_.get());
    state_->crc_flag = ISAL_GZIP;
    return {};
}

Result<size_t> GzipStream::read(std::span<char> out)
{
    size_t produced = 0;
    while (produced < out.size() && !done_) {
        if (stopRequested())
            return Error::cancelled();
        if (!inMember_) {
            // Between members: another member, or the end (zero padding, as tape tools write it,
            // counts as the end; so does anything else after a complete member, as gzip -d does).
            auto more = input_.fill();
            if (!more)
                return std::move(more).error();
            if (!*more) {
                done_ = true;
                break;
            }
            if (input_.available() >= 2 && (input_.data()[0] != 0x1f || input_.data()[1] != 0x8b)) {
                if (memberStart_ == 0 && memberOut_ == 0 && input_.offset() == 0)
                    return Error::format(where_, 0, QStringLiteral("not a gzip stream"));
                done_ = true;
                break;
            }
            // ISA-L's stateful header parser misreads a header that arrives in pieces (seen
            // with valgrind: a name cut from the fixed 10 bytes): it gets each header whole.
            auto header = wholeHeader();
            if (!header)
                return std::move(header).error();
            auto started = startMember();
            if (!started)
                return std::move(started).error();
        }
        if (pieces_) {
            auto got = pieces_->read(out.subspan(produced));
            if (!got)
                return std::move(got).error();
            produced += *got;
            memberOut_ += *got;
            totalOut_ += *got;
            if (*got == 0) {
                pieceCounts_ += pieces_->counts();
                pieces_.reset();
                inMember_ = false;
            }
            continue;
        }
        if (input_.available() == 0) {
            auto more = input_.fill();
            if (!more)
                return std::move(more).error();
            if (!*more)
                return fail(QStringLiteral("truncated: the file ends inside the member (after %1 bytes of output)").arg(memberOut_));
        }
        state_->next_in = const_cast<uint8_t *>(input_.data());
        state_->avail_in = uint32_t(std::min<size_t>(input_.available(), UINT32_MAX));
        const size_t room = std::min<size_t>(out.size() - produced, UINT32_MAX);
        state_->next_out = reinterpret_cast<uint8_t *>(out.data() + produced);
        state_->avail_out = uint32_t(room);
        const uint32_t before = state_->avail_in;
        const int rc = isal_inflate(state_.get());
        input_.consume(before - state_->avail_in);
        const size_t wrote = room - state_->avail_out;
        produced += wrote;
        memberOut_ += wrote;
        totalOut_ += wrote;
        if (rc < 0)
            return fail(isalErrorText(rc));
        if (state_->block_state == ISAL_BLOCK_FINISH) {
            inMember_ = false;
            if (recorder_)
                recorder_->memberEnd(totalOut_, state_->crc);
        } else if (recorder_) {
            checkpoint(out.first(produced));
        }
    }
    if (done_ && recorder_)
        collectSearch(true); // its point belongs in the index before it is finished
    return produced;
}

void GzipStream::recordSeekPoints(GzipSeekRecorder *recorder)
{
    recorder_ = recorder;
    piecesOptions_.threads = 1; // the pieces' own boundaries are not kept (yet): inflated in order
}

// A block point: a copy of ISA-L's state, the compressed bytes ahead and the window go to a search
// on a thread of its own (codecs/gzip_block_search); its outcome is taken at a later read.
void GzipStream::checkpoint(std::span<const char> out)
{
    // The search started half a spacing ago is taken now, waiting if it has not finished: the
    // points depend on the file only, never on how fast the search thread ran (sanitizers, load).
    // Half a spacing (4 MiB of output) is time enough for it on a busy machine: a quarter made
    // the first pass wait ~25 ms on this tarball of 50,000 files.
    if (search_.valid()) {
        if (totalOut_ < searchStart_ + recorder_->spacing() / 2)
            return;
        collectSearch(true);
    }
    if (!recorder_->due(totalOut_) || out.size() < deflate::kWindow)
        return;
    const auto phase = state_->block_state;
    if (state_->bfinal || (phase != ISAL_BLOCK_CODED && phase != ISAL_BLOCK_TYPE0 && phase != ISAL_BLOCK_NEW_HDR))
        return; // the member's last block, or inside a header: the next read tries
    // A few blocks ahead; further, in stored data (no dynamic block to find), is not worth it.
    constexpr size_t kSearch = size_t(256) << 10;
    if (!input_.ensure(std::min<size_t>(kSearch, input_.available() + kSearch)))
        return; // a read error: the next read reports it
    if (input_.available() < 64) {
        recorder_->postpone(totalOut_);
        return;
    }
    BlockSearch search;
    search.state = std::make_unique<inflate_state>();
    std::memcpy(search.state.get(), state_.get(), sizeof(inflate_state));
    search.ahead.assign(input_.data(), input_.data() + std::min(kSearch, input_.available()));
    search.aheadBit = input_.offset() * 8;
    search.out = totalOut_;
    search.before = QByteArray(out.last(deflate::kWindow).data(), qsizetype(deflate::kWindow));
    recorder_->searching(totalOut_);
    searchStart_ = totalOut_;
    search_ = std::async(std::launch::async, [search = std::move(search)]() mutable -> std::optional<FoundBlock> {
        try {
            return searchBlock(std::move(search));
        } catch (...) {
            return std::nullopt; // no memory for it: no point here
        }
    });
}

void GzipStream::collectSearch(bool wait)
{
    if (!search_.valid())
        return;
    if (!wait && search_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
        return;
    std::optional<FoundBlock> found = search_.get();
    if (found)
        recorder_->blockPoint(std::move(found->point), found->memberCrc);
    else
        recorder_->postpone(searchStart_);
}

} // namespace asc
