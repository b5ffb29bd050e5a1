// SPDX-License-Identifier: MIT
#pragma once
// One large gzip member inflated on every core. ISA-L inflates about 800 MiB/s on one core, and
// that bounds listing a tar.gz; a member is one chain of deflate blocks, so it is cut into
// pieces instead (codecs/deflate_blocks has the bit-level side):
// - the member's start is inflated here, in order, as it is read; only once a few MiB are out
//   (Options::rampUp) is the rest cut, so a reader that looks at the start (a format probe,
//   info) costs what one inflater costs. The first piece ends at the first block start in a
//   region ISA-L has not been given yet, proven as below (if not, ISA-L starts again from the
//   member's start and drops what was handed out);
// - the compressed member is read in regions of a few MiB; a task on the process's decode pool
//   (codecs/decode_pool) per region, a few at once,
//   finds the first dynamic block that starts in it and the first in the next region, and
//   decodes the piece between the two: with markers for the unknown 32 KiB before it until the
//   last 32 KiB decoded are known, then with ISA-L and those as its dictionary;
// - ISA-L is told where the piece ends by a stored final block put there: it finishes only if a
//   block of the member really ends at that bit, so a piece that ends well proves that the next
//   one starts at a real block (the first piece starts at the member's start);
// - pieces come back in order; markers are filled in from the output before them;
// - a piece whose markers never clear (copies of copies) is inflated by ISA-L as soon as the
//   piece before it is done, with that piece's last 32 KiB as its window (checked against what
//   was handed out before it is used).
// Where a piece does not prove out (a block-like pattern inside stored data, no block found, a
// piece too large), zlib inflates from the last proven block, block by block, until a block ends
// where a later piece starts, and the pieces take over again. Where the member ends (its last
// region, or a final block inside a piece), ISA-L inflates from the last proven block to the end.
// The member's CRC-32 and length are checked at its end as for any member, so what comes out is what
// gzip -d makes, or an error. It costs CPU (finding blocks, markers, copies, memory in flight):
// on 2 cores a listing is no faster, so it is on from 4 cores (defaults()).

#include "decode_pool.h"
#include "filter_input.h"
#include "gzip_regions.h"
#include "piece_buffers.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

struct z_stream_s;

namespace asc {

// ISA-L's inflate error codes in words.
QString isalErrorText(int rc);

class GzipPieces {
public:
    struct Options {
        unsigned threads = 0; // pieces decoded at once (on the shared pool); 0: defaults()
        size_t region = size_t(4) << 20; // compressed bytes per piece
        // Output of a member inflated in order before the rest is cut: a reader that only looks at
        // the start (a format probe, info) costs no more than one inflater.
        uint64_t rampUp = uint64_t(4) << 20;
    };
    struct Counts {
        uint64_t pieces = 0; // decoded on a thread and handed out
        uint64_t sequentialBlocks = 0; // blocks inflated in order by zlib
        uint64_t resyncs = 0; // times the pieces took over again after zlib
        uint64_t redone = 0; // pieces inflated again by ISA-L once the window was known
        uint64_t tails = 0; // member ends inflated in order by ISA-L
        size_t mostInFlight = 0; // most pieces on the pool at once
        Counts &operator+=(const Counts &o)
        {
            pieces += o.pieces;
            sequentialBlocks += o.sequentialBlocks;
            resyncs += o.resyncs;
            redone += o.redone;
            tails += o.tails;
            mostInFlight = std::max(mostInFlight, o.mostInFlight);
            return *this;
        }
    };

    // `input` is at the member's compressed data (its header read); `memberStart` is where the
    // member starts, for errors. The bytes after the member are back in `input` at the end.
    GzipPieces(FilterInput &input, QString where, uint64_t memberStart, Options options);
    ~GzipPieces();
    // The member's output; 0 once it has ended and its trailer checked out.
    Result<size_t> read(std::span<char> out);
    Counts counts() const { return counts_; }

    // A piece per core at once on machines with at least kMinCores cores; one (no cutting) below.
    static Options defaults();
    static constexpr int kMinCores = 4;
    // Each thread has a piece of up to 64 MiB in flight: more would crowd the worker's 2 GiB of
    // address space (sandbox/lockdown).
    static constexpr int kMaxThreads = 8;

private:
    // Where a piece is: queued, its start found (or being redone), waiting for the window of the
    // piece before it (its markers never cleared), done.
    enum class Stage { Queued,
                       StartKnown,
                       WaitingForWindow,
                       Done };
    // What came of it: its bytes; markers that never cleared (ISA-L can do it once the window is
    // known); the member's final block inside it; nothing usable (why says what).
    enum class Outcome { Decoded,
                         NoWindow,
                         MemberEnds,
                         Failed };
    struct Job;
    struct Sequential;
    struct Tail;

    void dispatch();
    void dropAllPieces(); // the member ends, or ISA-L takes it to the end: no piece is wanted
    void pieceTask(const std::shared_ptr<Job> &job); // on the pool
    void runJob(Job &job);
    // ISA-L from `from` (a block boundary) to `end`, where a block must end; if not, why.
    Outcome inflatePiece(const GzipRegion &here, const GzipRegion &next, uint64_t from, uint64_t end, const std::vector<uint8_t> &dictionary,
                         PieceBuffer &out, QString &why);
    std::shared_ptr<Job> jobFor(uint64_t region); // by region number; null if none
    Result<void> wait(Job &job);
    Result<void> nextOutput();
    Result<bool> fromPiece(Job &job); // false: its window was not the member's
    void finishJob(std::shared_ptr<Job> job);
    std::shared_ptr<Job> jobLocked(uint64_t number) const;
    Result<void> startSequential();
    Result<void> stepSequential();
    // Where the member ends in the piece at hand (its last region, or a final block seen before
    // the piece's end): ISA-L from the last proven block to the member's end, in order.
    Result<void> startTail();
    Result<void> stepTail();
    // The first piece, inflated here as it is read (codecs/gzip_pieces.cpp, Tail).
    Result<void> startHead();
    Result<void> armHead();
    Result<void> restartHead();
    Result<void> feed(uint64_t &fedEnd, const uint8_t *&next, uint32_t &available);
    Result<void> finishMember(uint64_t endByte);
    void deliver(PieceBuffer bytes, uint32_t crc);
    Error fail(const QString &what) const;

    FilterInput &input_;
    QString where_;
    uint64_t memberStart_;
    Options options_;
    unsigned threadCount_;

    GzipRegions regions_;
    PieceBuffers buffers_;

    // What is proven: output up to here comes from the member's first bits up to provenBit_.
    uint64_t provenBit_;
    uint64_t memberStartBit_;
    bool headTried_ = false;
    uint64_t piece_ = 0; // region number whose piece comes next
    std::vector<uint8_t> window_; // the last 32 KiB handed out
    uint32_t crc_ = 0;
    uint64_t size_ = 0;
    std::unique_ptr<Sequential> sequential_;
    std::unique_ptr<Tail> tail_;
    bool ended_ = false;

    std::deque<PieceBuffer> ready_;
    size_t readyAt_ = 0;

    mutable std::mutex mutex_;
    std::condition_variable work_;
    std::condition_variable finished_;
    std::deque<std::shared_ptr<Job>> jobs_; // dispatched, by region number
    std::vector<DecodeHandle> tasks_; // not yet ended: they use this object (the destructor waits)
    bool stop_ = false;
    Counts counts_;
};

} // namespace asc
