// SPDX-License-Identifier: MIT
#pragma once
// bzip2 decompression on every core (libbz2 itself is one block after another on one core):
// the blocks of a stream are found by their magic (codecs/bzip2_blocks), cut out, and
// decoded by libbz2 each as a stream of its own on the process's decode pool (codecs/decode_pool),
// and their output comes back in order. Each block's CRC is checked by libbz2, each stream's combined CRC here.
//
// A block's magic can also turn up inside another block's data (by chance about once in 2^48
// bits, or on purpose). Then the block before it does not end where it was cut, so its decode
// fails, and it is cut again at the next magic, a few times at most; a block that still fails
// is an error naming its offset. So what comes out is what bzip2 -d makes, or an error.
// Concatenated streams (pbzip2, cat a.bz2 b.bz2) follow one another; anything after the last
// complete stream that is not another stream ends the data (bzip2 -d ignores it too).

#include "byte_stream.h"
#include "decode_pool.h"
#include "io/byte_buffer.h"

#include <deque>
#include <vector>

namespace asc {

class Bzip2PointRecorder;

class Bzip2Stream final : public ByteStream {
public:
    // Where to start instead of a stream's header (codecs/bzip2_points): the upstream's
    // first byte is byte bit / 8 of the file, and a block of a level-`level` stream starts at
    // `bit`, after blocks whose combined CRC was `combined`.
    struct Resume {
        uint64_t bit = 0;
        int level = 9;
        uint32_t combined = 0;
    };
    struct Options {
        unsigned threads = 0; // blocks decoded at once (on the shared pool); 0: the pool's threads
        size_t chunk = size_t(1) << 20; // compressed bytes per read of the upstream
        // For tests: bit offsets taken for block magics too, as a magic inside a block's data
        // would be.
        std::vector<uint64_t> falseMagics;
        std::optional<Resume> resume;
        // Notes a restart point per block handed out (the upstream must start at the file's
        // first byte).
        Bzip2PointRecorder *recorder = nullptr;
    };
    Bzip2Stream(StreamPtr upstream, QString where);
    Bzip2Stream(StreamPtr upstream, QString where, Options options);
    ~Bzip2Stream() override;
    Result<size_t> read(std::span<char> out) override;
    uint64_t consumed() const override { return upstream_->consumed(); }

    struct Counts {
        uint64_t blocks = 0; // decoded and handed out
        uint64_t recuts = 0; // blocks cut again past a false magic
        size_t mostInFlight = 0; // most blocks on the pool at once
    };
    Counts counts() const { return counts_; }

    // How many times one block may be cut again before it is an error.
    static constexpr int kMaxRecuts = 8;
    // No block of a valid stream comes near this many compressed bytes (900k symbols of at
    // most 20 bits are 2.25 MB).
    static constexpr uint64_t kMaxBlockBytes = uint64_t(4) << 20;

private:
    struct Job;
    Result<bool> readMore();
    bool have(uint64_t byteEnd); // reads until the window holds bytes up to byteEnd, if it can
    // Where the first block or end magic in [from, cap) starts, reading on as needed.
    std::optional<uint64_t> nextMagic(uint64_t from, uint64_t cap);
    void plan();
    void planOne();
    void queueBlock(uint64_t bit, uint64_t end, int recuts, const QString &firstError);
    void queueError(uint64_t byte, const QString &message);
    void dropPlanned();
    Result<bool> nextOutput(); // false at the end; an error stays
    Result<bool> nextBlock();

    StreamPtr upstream_;
    QString where_;
    Options options_;
    unsigned threadCount_;

    // Compressed bytes [windowBase_, windowBase_ + window_.size()) of the upstream.
    ByteBuffer window_; // not zeroed as it grows: a small stream touches only what it reads

    uint64_t windowBase_ = 0;
    bool upstreamEnded_ = false;
    std::optional<Error> upstreamError_;

    // The planner: where the next thing starts, and what it is expected to be.
    enum class Expect { Header,
                        Magic,
                        Nothing };
    Expect expect_ = Expect::Header;
    uint64_t planBit_ = 0;
    int level_ = 9;
    int streams_ = 0;
    std::deque<std::shared_ptr<Job>> planned_; // in stream order; the front is handed out next

    // What is handed out.
    std::vector<char> current_;
    size_t currentAt_ = 0;
    uint32_t combined_ = 0; // combined CRC of the current stream's blocks so far
    uint64_t handedOut_ = 0; // decoded bytes of the blocks taken so far
    std::optional<Error> failed_;
    Counts counts_;

    std::optional<DecodeBudget::Lease> nextLease_; // reserved for the next block planned
};

} // namespace asc
