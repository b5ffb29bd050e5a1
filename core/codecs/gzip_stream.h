// SPDX-License-Identifier: MIT
#pragma once
// gzip decompression with ISA-L's igzip inflate (about three times zlib's speed): every member
// of a multi-member stream (pigz, bgzip, concatenated files), each member's CRC-32 and length
// checked. A damaged or truncated member is an error naming the member's offset.

#include "filter_input.h"
#include "gzip_pieces.h"
#include "gzip_block_search.h"
#include "gzip_seek_points.h"

#include <future>

#include <optional>

struct inflate_state;

namespace asc {

class GzipStream final : public ByteStream {
public:
    // `where` names the stream in errors (the file, or "FILE (inside xz)").
    // `chunk`: compressed bytes per read of the upstream.
    // `pieces`: how a large member is cut to be inflated on several cores (codecs/gzip_pieces);
    // by default a thread per core.
    GzipStream(StreamPtr upstream, QString where, size_t chunk = size_t(1) << 20,
               std::optional<GzipPieces::Options> pieces = std::nullopt);
    ~GzipStream() override;
    Result<size_t> read(std::span<char> out) override;
    uint64_t consumed() const override { return input_.upstream().consumed(); }
    // How the large members so far were cut (summed).
    GzipPieces::Counts pieceCounts() const;
    // Seek points go to `recorder` as the stream is read (before the first read; the members are
    // then inflated in order, not cut into pieces). The upstream must be the file itself.
    void recordSeekPoints(GzipSeekRecorder *recorder);
    uint64_t decodedSoFar() const { return totalOut_; }
    bool ended() const { return done_; }

private:
    // No gzip header we accept is longer (a name or comment without its end is refused).
    static constexpr size_t kMaxHeader = size_t(1) << 20;
    Error fail(const QString &what) const;
    Result<void> wholeHeader(); // the member's header, all of it in the input buffer
    Result<void> startMember();
    // After ISA-L's output `out` (the whole of this read's so far): a block point when one is due.
    void checkpoint(std::span<const char> out);
    // The search started at a checkpoint: its point to the recorder once done (`wait`: now).
    void collectSearch(bool wait);
    FilterInput input_;
    QString where_;
    GzipPieces::Options piecesOptions_;
    std::unique_ptr<inflate_state> state_;
    std::unique_ptr<GzipPieces> pieces_; // the current member, when it is cut into pieces
    GzipPieces::Counts pieceCounts_; // of the members before
    GzipSeekRecorder *recorder_ = nullptr;
    std::future<std::optional<FoundBlock>> search_; // at most one at a time
    uint64_t searchStart_ = 0; // decoded offset where it started
    uint64_t totalOut_ = 0;
    uint64_t memberStart_ = 0;
    uint64_t memberOut_ = 0; // bytes out of the current member
    bool inMember_ = false;
    bool done_ = false;
};

} // namespace asc
