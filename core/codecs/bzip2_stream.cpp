// SPDX-License-Identifier: MIT
#include "bzip2_stream.h"

#include "bzip2_blocks.h"
#include "bzip2_points.h"
#include "io/cancel.h"
#include "io/trace.h"

#include <algorithm>
#include <cstring>

namespace asc {

using bzip2::kCrcBits;
using bzip2::kMagicAndCrcBits;
using bzip2::kMagicBits;

struct Bzip2Stream::Job {
    uint64_t bit = 0; // where the block (its magic) starts in the upstream, in bits
    uint64_t length = 0; // in bits, up to the next magic
    int level = 9;
    uint32_t crc = 0; // the block's own, from its header
    int recuts = 0;
    QString firstError; // of the first cut, reported if no cut works
    std::vector<uint8_t> input; // the bytes holding the block
    // An end marker carries the stream's combined CRC; an error job, an error found in planning.
    bool endOfStream = false;
    uint32_t storedCombined = 0;
    std::optional<Error> error;
    // Set by its task on the pool: read once the task has ended (none for markers and errors).
    bzip2::DecodedBlock result;
    DecodeHandle task;
    std::optional<DecodeBudget::Lease> lease; // its output's share of the process's budget
};

Bzip2Stream::Bzip2Stream(StreamPtr upstream, QString where)
    : Bzip2Stream(std::move(upstream), std::move(where), Options{})
{
}

Bzip2Stream::Bzip2Stream(StreamPtr upstream, QString where, Options options)
    : upstream_(std::move(upstream)),
      where_(std::move(where)),
      options_(std::move(options)),
      threadCount_(options_.threads ? options_.threads : DecodePool::shared().threads())
{
    std::sort(options_.falseMagics.begin(), options_.falseMagics.end());
    if (options_.resume) {
        // Offsets stay the file's: the window starts where the upstream does.
        windowBase_ = options_.resume->bit / 8;
        planBit_ = options_.resume->bit;
        level_ = options_.resume->level;
        combined_ = options_.resume->combined;
        streams_ = 1;
        expect_ = Expect::Magic;
    }
}

Bzip2Stream::~Bzip2Stream()
{
    // A task holds its own job, not this stream: those running finish on their own.
    dropPlanned();
}

Result<bool> Bzip2Stream::readMore()
{
    if (upstreamEnded_)
        return false;
    // Bytes before the oldest block still planned (or the plan's position) are not needed again.
    uint64_t keep = planBit_ / 8;
    if (!planned_.empty())
        keep = std::min(keep, planned_.front()->bit / 8);
    if (keep > windowBase_ + (uint64_t(16) << 20) && keep <= windowBase_ + window_.size()) {
        window_.dropFront(size_t(keep - windowBase_));
        windowBase_ = keep;
    }
    const size_t have = window_.size();
    const size_t chunk = bufferFor(*upstream_, std::max<size_t>(options_.chunk, 4096));
    uint8_t *room = window_.grow(chunk);
    const TraceLayer layer(options_.resume ? "seek point" : "decompression input"); // a trace shows reads from a point
    auto got = upstream_->read(std::span(reinterpret_cast<char *>(room), chunk));
    window_.shrink(have + (got ? *got : 0));
    if (!got) {
        upstreamError_ = got.error();
        upstreamEnded_ = true;
        return std::move(got).error();
    }
    upstreamEnded_ = *got == 0;
    return !upstreamEnded_;
}

bool Bzip2Stream::have(uint64_t byteEnd)
{
    while (windowBase_ + window_.size() < byteEnd) {
        auto more = readMore();
        if (!more || !*more)
            return false;
    }
    return true;
}

std::optional<uint64_t> Bzip2Stream::nextMagic(uint64_t from, uint64_t cap)
{
    auto falseMagic = std::lower_bound(options_.falseMagics.begin(), options_.falseMagics.end(), from);
    for (;;) {
        const uint64_t base = windowBase_ * 8;
        const uint64_t end = (windowBase_ + window_.size()) * 8;
        std::optional<uint64_t> magic;
        if (auto found = bzip2::findMagic(window_.view(), from - base, std::min(cap, end) - base))
            magic = found->bit + base;
        if (falseMagic != options_.falseMagics.end() && *falseMagic < std::min(cap, end) && (!magic || *falseMagic < *magic))
            magic = *falseMagic;
        if (magic)
            return magic;
        // Every offset whose magic and CRC lie in the window has been looked at.
        from = std::max(from, end > kMagicAndCrcBits ? end - kMagicAndCrcBits + 1 : 0);
        if (from >= cap)
            return std::nullopt;
        auto more = readMore();
        if ((!more || !*more) && end == (windowBase_ + window_.size()) * 8)
            return std::nullopt;
    }
}

void Bzip2Stream::queueError(uint64_t byte, const QString &message)
{
    auto job = std::make_shared<Job>();
    job->bit = planBit_;
    job->error = upstreamError_ ? *upstreamError_ : Error::format(where_, byte, message);
    planned_.push_back(std::move(job));
    expect_ = Expect::Nothing;
}

void Bzip2Stream::queueBlock(uint64_t bit, uint64_t end, int recuts, const QString &firstError)
{
    auto job = std::make_shared<Job>();
    job->bit = bit;
    job->length = end - bit;
    job->level = level_;
    job->recuts = recuts;
    job->firstError = firstError;
    const uint64_t from = bit / 8;
    const uint64_t to = std::min<uint64_t>((end + 7) / 8 + 1, windowBase_ + window_.size());
    job->input.assign(window_.data() + (from - windowBase_), window_.data() + (to - windowBase_));
    job->crc = uint32_t(bzip2::bitsAt(job->input.data(), bit % 8 + kMagicBits, kCrcBits));
    job->lease = std::move(nextLease_);
    nextLease_.reset();
    // The task has the job (not this stream): a stream destroyed meanwhile does not matter to it.
    job->task = DecodePool::shared().submit([job]() -> Result<void> {
        job->result = bzip2::decodeBlock(job->input, job->bit % 8, job->length, job->level, bzip2::maxBlockOutput(job->level));
        std::vector<uint8_t>().swap(job->input);
        return {};
    });
    planned_.push_back(job);
    size_t inFlight = 0;
    for (const auto &planned : planned_)
        inFlight += planned->task ? 1 : 0;
    counts_.mostInFlight = std::max(counts_.mostInFlight, inFlight);
}

void Bzip2Stream::planOne()
{
    switch (expect_) {
    case Expect::Nothing:
        return;
    case Expect::Header: {
        const uint64_t at = planBit_ / 8;
        if (!have(at + 4)) {
            if (upstreamError_)
                return queueError(at, QString());
            if (streams_ == 0)
                return queueError(at, QStringLiteral("not a bzip2 stream: it ends inside the header"));
            expect_ = Expect::Nothing; // the end of the data
            return;
        }
        const uint8_t *h = window_.data() + (at - windowBase_);
        if (h[0] != 'B' || h[1] != 'Z' || h[2] != 'h' || h[3] < '1' || h[3] > '9') {
            if (streams_ == 0)
                return queueError(at, QStringLiteral("not a bzip2 stream"));
            expect_ = Expect::Nothing; // trailing bytes (zero padding, garbage): bzip2 -d ignores them
            return;
        }
        level_ = h[3] - '0';
        ++streams_;
        planBit_ += 32;
        expect_ = Expect::Magic;
        return;
    }
    case Expect::Magic: {
        const uint64_t at = planBit_ / 8;
        if (!have((planBit_ + kMagicAndCrcBits + 7) / 8))
            return queueError(at, QStringLiteral("truncated: the file ends inside the bzip2 stream"));
        const uint64_t value = bzip2::bitsAt(window_.data(), planBit_ - windowBase_ * 8, kMagicBits);
        const bool falseMagic = std::binary_search(options_.falseMagics.begin(), options_.falseMagics.end(), planBit_);
        if (value == bzip2::kEndMagic && !falseMagic) {
            auto job = std::make_shared<Job>();
            job->bit = planBit_;
            job->endOfStream = true;
            job->storedCombined = uint32_t(bzip2::bitsAt(window_.data(), planBit_ - windowBase_ * 8 + kMagicBits, kCrcBits));
            planned_.push_back(std::move(job));
            planBit_ = (planBit_ + kMagicAndCrcBits + 7) / 8 * 8;
            expect_ = Expect::Header;
            return;
        }
        if (value != bzip2::kBlockMagic && !falseMagic)
            return queueError(at, QStringLiteral("expected a bzip2 block or the end of the stream here (bit %1 of the byte)").arg(planBit_ % 8));
        const uint64_t cap = planBit_ + kMaxBlockBytes * 8;
        auto next = nextMagic(planBit_ + kMagicAndCrcBits, cap);
        const uint64_t end = next ? *next : std::min(cap, (windowBase_ + window_.size()) * 8);
        queueBlock(planBit_, end, 0, QString());
        planBit_ = end; // if no magic follows, the next look finds the file's end: truncated
        return;
    }
    }
}

void Bzip2Stream::plan()
{
    // Enough blocks ahead to keep every thread busy while the front one is handed out, reached
    // by doubling: a read of one member from a point does not decode blocks it never needs.
    const size_t ahead = std::min<size_t>(threadCount_ + 2, size_t(2) << std::min<uint64_t>(counts_.blocks, 8));
    size_t decoding = 0;
    for (const auto &job : planned_)
        decoding += job->length ? 1 : 0;
    while (expect_ != Expect::Nothing && decoding < ahead) {
        // A block more only while its output fits the process's budget (the first always may).
        if (!nextLease_) {
            nextLease_ = DecodeBudget::shared().reserve(bzip2::maxBlockOutput(level_), decoding == 0);
            if (!nextLease_)
                break;
        }
        const size_t before = planned_.size();
        planOne();
        if (planned_.size() > before && planned_.back()->length)
            ++decoding;
    }
    nextLease_.reset();
}

void Bzip2Stream::dropPlanned()
{
    for (auto &job : planned_)
        if (job->task)
            job->task->drop();
    planned_.clear();
}

Result<bool> Bzip2Stream::nextOutput()
{
    if (failed_)
        return *failed_;
    auto more = nextBlock();
    if (!more && more.error().kind != ErrorKind::Cancelled)
        failed_ = more.error();
    return more;
}

Result<bool> Bzip2Stream::nextBlock()
{
    for (;;) {
        plan();
        if (planned_.empty())
            return false;
        std::shared_ptr<Job> job = planned_.front();
        if (job->task) {
            if (auto waited = job->task->wait(); !waited) {
                if (waited.error().kind == ErrorKind::Cancelled)
                    return std::move(waited).error();
                // Out of memory on the pool: this block's error, not a cut to try again.
                return Error::format(where_, job->bit / 8, QStringLiteral("the bzip2 block starting here: %1").arg(waited.error().toString()));
            }
        }
        if (job->error)
            return *job->error;
        if (job->endOfStream) {
            planned_.pop_front();
            if (job->storedCombined != combined_)
                return Error::format(where_, job->bit / 8,
                                     QStringLiteral("the bzip2 stream ending here: its combined CRC %1 does not match its blocks' (%2): a block is missing or repeated")
                                         .arg(job->storedCombined, 8, 16, QLatin1Char('0'))
                                         .arg(combined_, 8, 16, QLatin1Char('0')));
            combined_ = 0;
            continue;
        }
        if (!job->result.error.isEmpty()) {
            // Cut again at the next magic: the one it was cut at may lie inside its data.
            const QString first = job->firstError.isEmpty() ? job->result.error : job->firstError;
            const uint64_t bit = job->bit;
            const uint64_t cut = job->bit + job->length;
            const int recuts = job->recuts + 1;
            const int level = job->level;
            dropPlanned();
            planBit_ = bit; // keeps the block's bytes in the window
            auto next = recuts <= kMaxRecuts ? nextMagic(cut + 1, bit + kMaxBlockBytes * 8) : std::nullopt;
            if (!next)
                return Error::format(where_, bit / 8, QStringLiteral("the bzip2 block starting here (at bit %1 of the byte): %2").arg(bit % 8).arg(first));
            ++counts_.recuts;
            level_ = level;
            queueBlock(bit, *next, recuts, first);
            planBit_ = *next;
            expect_ = Expect::Magic;
            continue;
        }
        planned_.pop_front();
        if (options_.recorder)
            options_.recorder->block(Bzip2Point{job->bit, handedOut_, combined_, uint8_t(job->level)});
        combined_ = ((combined_ << 1) | (combined_ >> 31)) ^ job->crc;
        ++counts_.blocks;
        current_ = std::move(job->result.bytes);
        handedOut_ += current_.size();
        currentAt_ = 0;
        if (!current_.empty())
            return true;
    }
}

Result<size_t> Bzip2Stream::read(std::span<char> out)
{
    size_t produced = 0;
    while (produced < out.size()) {
        if (stopRequested())
            return Error::cancelled();
        if (currentAt_ == current_.size()) {
            auto more = nextOutput();
            if (!more) {
                if (produced)
                    break; // the error comes with the next read, after what was good
                return std::move(more).error();
            }
            if (!*more)
                break;
        }
        const size_t n = std::min(out.size() - produced, current_.size() - currentAt_);
        std::memcpy(out.data() + produced, current_.data() + currentAt_, n);
        produced += n;
        currentAt_ += n;
    }
    return produced;
}

} // namespace asc
