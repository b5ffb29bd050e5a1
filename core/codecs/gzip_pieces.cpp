// SPDX-License-Identifier: MIT
#include "gzip_pieces.h"

#include "deflate_blocks.h"
#include "io/cancel.h"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <sys/mman.h>

namespace asc {

namespace {

// No piece decodes to more (a few MiB of compressed data at 16:1); one that would is left to
// the in-order inflater, which needs no more memory than its output buffer.
constexpr size_t kMaxPieceBytes = size_t(64) << 20;
// The marker decoder is a fifth of ISA-L's speed: a piece whose window is still not known after
// this many symbols (long runs copied again and again) is inflated by ISA-L once the piece
// before it is out.
constexpr size_t kMaxMarkerSymbols = size_t(1) << 20;
// How many regions the first piece may span looking for a block start to end at.
constexpr uint64_t kHeadSearch = 16;
constexpr size_t kSequentialOutput = size_t(1) << 20;

} // namespace

struct GzipPieces::Job {
    uint64_t number = 0; // the region's
    RegionPtr here;
    RegionPtr next;
    // Where it is, published by the thread under the mutex.
    Stage stage = Stage::Queued;
    std::optional<uint64_t> start; // in upstream bits, once stage is past Queued
    bool stale = false; // dropped from the plan (under the mutex)
    // Results, valid once Done.
    Outcome outcome = Outcome::Failed;
    uint64_t end = 0;
    std::vector<uint16_t> symbols; // decoded with markers, from the start
    PieceBuffer bytes; // inflated after the symbols
    uint32_t bytesCrc = 0;
    QString why; // what went wrong, for messages only
    bool redoTried = false; // inflated again with the window of the piece before
    std::vector<uint8_t> usedWindow; // the window ISA-L was given, when taken from the piece before
    std::vector<uint8_t> lastWindow; // the last 32 KiB of the output, when it has that many bytes
};

struct GzipPieces::Sequential {
    z_stream z{};
    bool open = false;
    uint64_t fedEnd = 0; // upstream offset just after the bytes handed to zlib
    PieceBuffer out;
    ~Sequential()
    {
        if (open)
            inflateEnd(&z);
    }
};

struct GzipPieces::Tail {
    std::unique_ptr<inflate_state> state = std::make_unique<inflate_state>();
    uint64_t fedEnd = 0; // upstream offset just after the bytes handed to ISA-L
    PieceBuffer out;
    uint64_t skip = 0; // output already handed out (a restart after the first piece failed)
    bool head = false; // the member's start: its regions stay until it is proven or restarted
    bool armable = true; // a head not yet given its end
    // The first piece: it ends at stopBit (the next piece's start), proven by a final block put
    // there. What ISA-L makes from the bytes before safeEnd is the member's whatever follows; what
    // it makes after is held until it finishes exactly at the end.
    std::optional<uint64_t> stopBit;
    uint64_t stopRegion = 0; // the region holding it: its piece comes next
    uint64_t safeEnd = 0;
    std::vector<uint8_t> last; // the bytes from safeEnd to the stop bit's byte, then the final block
    bool inLast = false;
};

QString isalErrorText(int rc)
{
    switch (rc) {
    case ISAL_INVALID_BLOCK: return QStringLiteral("invalid deflate block");
    case ISAL_INVALID_SYMBOL: return QStringLiteral("invalid deflate symbol");
    case ISAL_INVALID_LOOKBACK: return QStringLiteral("invalid back-reference distance");
    case ISAL_INVALID_WRAPPER: return QStringLiteral("invalid gzip header");
    case ISAL_UNSUPPORTED_METHOD: return QStringLiteral("compression method is not deflate");
    case ISAL_INCORRECT_CHECKSUM: return QStringLiteral("CRC-32 or length in the trailer does not match the data (corrupt)");
    case ISAL_NEED_DICT: return QStringLiteral("needs a preset dictionary");
    default: return QStringLiteral("inflate error %1").arg(rc);
    }
}

GzipPieces::Options GzipPieces::defaults()
{
    // Cutting costs CPU: finding blocks, decoding each piece's start with markers, and more memory
    // in flight. Measured on 2 cores (bench/README.md) a listing took about 1.4 times the CPU and
    // finished no sooner than on 1; from 4 cores on the same work spreads over twice the cores.
    Options o;
    const int cores = int(decodeThreads());
    o.threads = cores >= kMinCores ? unsigned(std::min(cores, kMaxThreads)) : 1;
    return o;
}

GzipPieces::GzipPieces(FilterInput &input, QString where, uint64_t memberStart, Options options)
    : input_(input),
      where_(std::move(where)),
      memberStart_(memberStart),
      options_(options),
      threadCount_(std::min<unsigned>(options.threads ? options.threads : defaults().threads, kMaxThreads)),
      regions_(input, std::max<size_t>(options.region, 4096), threadCount_ + 4),
      buffers_(threadCount_ + 2, 8 * std::max<size_t>(options.region, 4096), kMaxPieceBytes),
      provenBit_(input.offset() * 8),
      memberStartBit_(provenBit_)
{
    options_.region = std::max<size_t>(options_.region, 4096);
}

GzipPieces::~GzipPieces()
{
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    // Queued pieces never start; running ones end (they use this object).
    for (auto &task : tasks_)
        task->drop();
    for (auto &task : tasks_)
        task->join();
}

Error GzipPieces::fail(const QString &what) const
{
    return Error::format(where_, memberStart_, QStringLiteral("the gzip member starting here: %1").arg(what));
}

std::shared_ptr<GzipPieces::Job> GzipPieces::jobFor(uint64_t region)
{
    for (auto &job : jobs_)
        if (job->number == region)
            return job;
    return nullptr;
}

void GzipPieces::dispatch()
{
    // Regions behind the output are not needed again (zlib may still be reading the one it is in).
    const uint64_t keep = sequential_ ? sequential_->fedEnd - sequential_->z.avail_in : provenBit_ / 8;
    regions_.dropBehind(keep);
    // Nor are pieces behind it.
    uint64_t from = sequential_ ? regions_.first() : piece_;
    if (tail_ && tail_->stopBit)
        from = std::max(from, tail_->stopRegion); // the first piece is being inflated here
    {
        std::lock_guard lock(mutex_);
        while (!jobs_.empty() && jobs_.front()->number < from) {
            jobs_.front()->stale = true;
            jobs_.pop_front();
        }
    }
    uint64_t next = jobs_.empty() ? from : jobs_.back()->number + 1;
    const uint64_t horizon = from + threadCount_ + 1;
    for (; next < horizon; ++next) {
        (void)regions_.readThrough(next + 1); // an error shows where the bytes are needed
        auto job = std::make_shared<Job>();
        job->number = next;
        job->here = regions_.number(next);
        job->next = regions_.number(next + 1);
        if (!job->here || !job->next)
            break;
        {
            std::lock_guard lock(mutex_);
            jobs_.push_back(job);
            counts_.mostInFlight = std::max(counts_.mostInFlight, jobs_.size());
        }
        std::erase_if(tasks_, [](const DecodeHandle &t) {
            const auto state = t->state();
            return state == DecodeTask::State::Finished || state == DecodeTask::State::Dropped;
        });
        tasks_.push_back(DecodePool::shared().submit([this, job]() -> Result<void> {
            pieceTask(job);
            return {};
        }));
    }
}

void GzipPieces::pieceTask(const std::shared_ptr<Job> &job)
{
    bool stale = false;
    {
        std::lock_guard lock(mutex_);
        if (stop_)
            return; // the member is being dropped
        stale = job->stale; // written under the lock (dropped from the plan), read under it
    }
    if (!stale) {
        // An allocation that fails fails the piece, which is then inflated in order, or
        // reported as the member's error (not the pool's).
        try {
            runJob(*job);
        } catch (const std::bad_alloc &) {
            job->outcome = Outcome::Failed;
            job->why = QStringLiteral("out of memory");
        }
    }
    // A stale piece still passes on a window the piece after it waits for.
    finishJob(job);
}

std::shared_ptr<GzipPieces::Job> GzipPieces::jobLocked(uint64_t number) const
{
    for (const auto &job : jobs_)
        if (job->number == number)
            return job;
    return nullptr;
}

// A piece whose markers did not clear is inflated by ISA-L as soon as the piece before it is
// done: its last 32 KiB are the window (checked against what was handed out before use).
void GzipPieces::finishJob(std::shared_ptr<Job> job)
{
    for (;;) {
        std::shared_ptr<Job> redo;
        std::vector<uint8_t> window;
        {
            std::lock_guard lock(mutex_);
            if (job->outcome == Outcome::Decoded && job->bytes.size >= deflate::kWindow)
                job->lastWindow.assign(job->bytes.data.get() + job->bytes.size - deflate::kWindow, job->bytes.data.get() + job->bytes.size);
            if (job->outcome == Outcome::NoWindow && job->end && job->start && !job->redoTried) {
                auto before = jobLocked(job->number - 1);
                if (before && before->stage == Stage::Done && before->outcome == Outcome::Decoded && !before->lastWindow.empty()) {
                    redo = job;
                    window = before->lastWindow;
                } else if (before && before->stage != Stage::Done && !before->stale) {
                    job->stage = Stage::WaitingForWindow; // the piece before picks it up when done
                    return;
                }
            }
            if (!redo) {
                job->stage = Stage::Done;
                auto after = jobLocked(job->number + 1);
                if (after && after->stage == Stage::WaitingForWindow) {
                    if (job->outcome == Outcome::Decoded && !job->lastWindow.empty()) {
                        after->stage = Stage::StartKnown; // being redone
                        redo = after;
                        window = job->lastWindow;
                    } else {
                        after->stage = Stage::Done;
                    }
                }
            }
            if (redo) {
                redo->redoTried = true;
                if (redo->stale) {
                    redo->stage = Stage::Done;
                    redo.reset();
                }
            }
        }
        finished_.notify_all();
        if (!redo)
            return;
        redo->symbols.clear();
        redo->outcome = inflatePiece(*redo->here, *redo->next, *redo->start, redo->end, window, redo->bytes, redo->why);
        if (redo->outcome == Outcome::Decoded) {
            redo->bytesCrc = crc32_gzip_refl(0, redo->bytes.data.get(), redo->bytes.size);
            redo->usedWindow = std::move(window);
        }
        job = std::move(redo);
    }
}

GzipPieces::Outcome GzipPieces::inflatePiece(const GzipRegion &here, const GzipRegion &next, uint64_t inflateFrom, uint64_t end,
                                             const std::vector<uint8_t> &dictionary, PieceBuffer &out, QString &why)
{
    auto failed = [&why](Outcome outcome, QString text) {
        why = std::move(text);
        return outcome;
    };
    // ISA-L from inflateFrom (the bits before it in that byte go in its bit buffer) to the byte
    // holding the end, then that byte cut there with a final block after it: straight from the
    // regions' bytes.
    const uint64_t endByte = end / 8;
    auto byteAt = [&](uint64_t b) { return b < here.end() ? here.bytes[size_t(b - here.offset)] : next.bytes[size_t(b - next.offset)]; };
    const uint64_t bulkFrom = inflateFrom / 8 + (inflateFrom % 8 ? 1 : 0);
    if (bulkFrom > endByte || endByte >= next.end())
        return failed(Outcome::Failed, QStringLiteral("a piece shorter than a byte"));
    const std::vector<uint8_t> tail = deflate::finalBlockAt(byteAt(endByte), unsigned(end % 8));
    auto state = std::make_unique<inflate_state>();
    isal_inflate_init(state.get());
    state->crc_flag = ISAL_DEFLATE;
    if (!dictionary.empty() && isal_inflate_set_dict(state.get(), const_cast<uint8_t *>(dictionary.data()), uint32_t(dictionary.size())) != COMP_OK)
        return failed(Outcome::Failed, QStringLiteral("ISA-L refused the dictionary"));
    if (inflateFrom % 8) {
        state->read_in = byteAt(inflateFrom / 8) >> (inflateFrom % 8);
        state->read_in_length = int32_t(8 - inflateFrom % 8);
    }
    auto range = [](const GzipRegion &r, uint64_t from, uint64_t to) {
        from = std::clamp(from, r.offset, r.end());
        to = std::clamp(to, r.offset, r.end());
        return std::span(r.bytes).subspan(size_t(from - r.offset), size_t(to - from));
    };
    const std::span<const uint8_t> parts[] = {range(here, bulkFrom, endByte), range(next, bulkFrom, endByte), tail};
    out = buffers_.take(std::min(kMaxPieceBytes, size_t(endByte - bulkFrom) * 4 + 65536));
    for (int part = 0; part < 3; ++part) {
        state->next_in = const_cast<uint8_t *>(parts[part].data());
        state->avail_in = uint32_t(parts[part].size());
        for (;;) {
            state->next_out = out.data.get() + state->total_out;
            state->avail_out = uint32_t(out.capacity - state->total_out);
            const int rc = isal_inflate(state.get());
            if (rc < 0)
                return failed(Outcome::Failed, QStringLiteral("ISA-L: %1").arg(isalErrorText(rc)));
            if (state->block_state == ISAL_BLOCK_FINISH) {
                if (part != 2 || state->avail_in != 0 || state->read_in_length != 0)
                    return failed(Outcome::MemberEnds, QStringLiteral("a final block ends before the next piece starts"));
                break;
            }
            if (state->avail_out == 0) {
                if (out.capacity >= kMaxPieceBytes)
                    return failed(Outcome::Failed, QStringLiteral("it decodes to more than %1 bytes").arg(kMaxPieceBytes));
                out.grow(std::min(kMaxPieceBytes, out.capacity * 2), state->total_out);
                continue;
            }
            if (state->avail_in == 0)
                break;
        }
    }
    if (state->block_state != ISAL_BLOCK_FINISH)
        return failed(Outcome::Failed, QStringLiteral("no block ends where the next piece starts"));
    out.size = state->total_out;
    return Outcome::Decoded;
}

void GzipPieces::runJob(Job &job)
{
    const GzipRegion &here = *job.here;
    const GzipRegion &next = *job.next;
    // The member's own start is inflated in order (startHead), so every piece starts at a block found.
    const auto s = here.pieceStart();
    {
        std::lock_guard lock(mutex_);
        job.start = s;
        job.stage = Stage::StartKnown;
    }
    finished_.notify_all();
    if (!s) {
        job.outcome = Outcome::Failed;
        job.why = QStringLiteral("no block found in its region");
        return;
    }
    const uint64_t start = *s;
    const auto e = next.pieceStart();
    if (!e) {
        job.outcome = Outcome::Failed;
        job.why = QStringLiteral("no block found in the next region");
        return;
    }
    job.end = *e;

    // The marker decoder reads the piece's start in its region; a piece that is still not clean
    // at the region's end is decoded again from one copy of both regions' bytes (rare).
    const uint64_t firstByte = start / 8;
    std::vector<uint8_t> joined;
    std::span<const uint8_t> view = std::span(here.bytes).subspan(size_t(firstByte - here.offset));
    deflate::Limits limits;
    limits.stopBit = job.end - firstByte * 8;
    limits.stopWhenClean = true;
    limits.maxSymbols = kMaxMarkerSymbols;
    deflate::Decoded d = deflate::decode(view, start - firstByte * 8, limits, buffers_.takeSymbols());
    if (d.stop == deflate::Stop::Failed && d.ranOut) {
        // Perhaps only out of input: again with the next region's bytes after it.
        joined.assign(view.begin(), view.end());
        joined.insert(joined.end(), next.bytes.begin(), next.bytes.begin() + std::ptrdiff_t(std::min(job.end / 8 + 1, next.end()) - next.offset));
        view = joined;
        d = deflate::decode(view, start - firstByte * 8, limits, std::move(d.symbols));
    }
    if (d.stop == deflate::Stop::FinalBlock) {
        job.why = QStringLiteral("the member ends inside it");
        job.outcome = Outcome::MemberEnds;
        return;
    }
    if (d.stop == deflate::Stop::Failed) {
        job.why = d.error;
        job.outcome = Outcome::NoWindow;
        return;
    }
    job.symbols = std::move(d.symbols);
    if (d.stop == deflate::Stop::AtStopBit) {
        job.outcome = Outcome::Decoded;
        return;
    }
    const uint64_t inflateFrom = firstByte * 8 + d.endBit; // in upstream bits
    std::vector<uint8_t> dictionary(deflate::kWindow);
    const uint16_t *last = job.symbols.data() + job.symbols.size() - deflate::kWindow;
    for (size_t i = 0; i < deflate::kWindow; ++i)
        dictionary[i] = uint8_t(last[i]);

    job.outcome = inflatePiece(here, next, inflateFrom, job.end, dictionary, job.bytes, job.why);
    if (job.outcome == Outcome::Decoded)
        job.bytesCrc = crc32_gzip_refl(0, job.bytes.data.get(), job.bytes.size);
}

Result<void> GzipPieces::wait(Job &job)
{
    std::unique_lock lock(mutex_);
    return waitUnlessStopped(finished_, lock, [&] { return job.stage == Stage::Done; });
}

void GzipPieces::deliver(PieceBuffer bytes, uint32_t crc)
{
    if (bytes.size == 0)
        return buffers_.give(std::move(bytes));
    crc_ = uint32_t(crc32_combine(crc_, crc, z_off_t(bytes.size)));
    size_ += bytes.size;
    const uint8_t *end = bytes.data.get() + bytes.size;
    if (bytes.size >= deflate::kWindow) {
        window_.assign(end - deflate::kWindow, end);
    } else {
        window_.insert(window_.end(), static_cast<const uint8_t *>(bytes.data.get()), end);
        if (window_.size() > deflate::kWindow)
            window_.erase(window_.begin(), window_.end() - deflate::kWindow);
    }
    ready_.push_back(std::move(bytes));
}

Result<bool> GzipPieces::fromPiece(Job &job)
{
    if (!job.usedWindow.empty() && job.usedWindow != window_)
        return false; // the piece before it was not the member's after all
    if (!job.usedWindow.empty())
        ++counts_.redone;
    PieceBuffer head = buffers_.take(job.symbols.size());
    head.size = job.symbols.size();
    if (!deflate::resolve(job.symbols, window_, head.data.get()))
        return Error::format(where_, job.start.value_or(0) / 8, QStringLiteral("the gzip member's block starting here: a back-reference before the member's start"));
    buffers_.giveSymbols(std::move(job.symbols));
    const uint32_t headCrc = crc32_gzip_refl(0, head.data.get(), head.size);
    deliver(std::move(head), headCrc);
    deliver(std::move(job.bytes), job.bytesCrc);
    provenBit_ = job.end;
    piece_ = job.number + 1;
    ++counts_.pieces;
    std::lock_guard lock(mutex_);
    while (!jobs_.empty() && jobs_.front()->number <= job.number)
        jobs_.pop_front();
    return true;
}

Result<void> GzipPieces::startSequential()
{
    auto s = std::make_unique<Sequential>();
    if (inflateInit2(&s->z, -15) != Z_OK)
        return fail(QStringLiteral("zlib could not start"));
    s->open = true;
    uint64_t byte = provenBit_ / 8;
    const unsigned shift = unsigned(provenBit_ % 8);
    if (shift) {
        const GzipRegion *r = regions_.holding(byte);
        if (!r)
            return fail(QStringLiteral("internal: the bytes of the last proven block are gone"));
        inflatePrime(&s->z, int(8 - shift), r->at(byte) >> shift);
        ++byte;
    }
    if (!window_.empty())
        inflateSetDictionary(&s->z, window_.data(), uInt(window_.size()));
    s->fedEnd = byte;
    s->out = buffers_.take(kSequentialOutput);
    sequential_ = std::move(s);
    return {};
}

Result<void> GzipPieces::stepSequential()
{

    dispatch();
    Sequential &s = *sequential_;
    z_stream &z = s.z;
    z.next_out = s.out.data.get();
    z.avail_out = uInt(s.out.capacity);
    auto handOut = [&] {
        s.out.size = s.out.capacity - z.avail_out;
        const uint32_t crc = crc32_gzip_refl(0, s.out.data.get(), s.out.size);
        deliver(std::move(s.out), crc);
        s.out = buffers_.take(kSequentialOutput);
        z.next_out = s.out.data.get();
        z.avail_out = uInt(s.out.capacity);
    };
    while (z.avail_out > 0) {
        if (stopRequested())
            return Error::cancelled();
        if (z.avail_in == 0) {
            const uint8_t *next = nullptr;
            uint32_t available = 0;
            auto fed = feed(s.fedEnd, next, available);
            if (!fed)
                return fed;
            z.next_in = const_cast<Bytef *>(next);
            z.avail_in = uInt(available);
        }
        const int rc = inflate(&z, Z_BLOCK);
        if (rc == Z_STREAM_END) {
            handOut();
            return finishMember(s.fedEnd - z.avail_in);
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            return Error::format(where_, s.fedEnd - z.avail_in, QStringLiteral("the gzip member starting at byte %1: %2").arg(memberStart_).arg(QString::fromLatin1(z.msg ? z.msg : "inflate error")));
        if (!(z.data_type & 128) || (z.data_type & 64))
            continue;
        // A block ended: does a piece start right here?
        ++counts_.sequentialBlocks;
        const uint64_t bit = (s.fedEnd - z.avail_in) * 8 - uint64_t(z.data_type & 7);
        const GzipRegion *r = regions_.holding(bit / 8);
        if (!r)
            continue;
        std::shared_ptr<Job> job = jobFor(r->number);
        if (!job)
            continue;
        {
            std::unique_lock lock(mutex_);
            auto known = waitUnlessStopped(finished_, lock, [&] { return job->stage != Stage::Queued; });
            if (!known)
                return known;
            if (!job->start || *job->start != bit)
                continue;
        }
        auto waited = wait(*job);
        if (!waited)
            return waited;
        if (job->outcome != Outcome::Decoded)
            continue;
        handOut();
        sequential_.reset();
        provenBit_ = bit;
        piece_ = job->number;
        ++counts_.resyncs;
        return {};
    }
    handOut();
    return {};
}

void GzipPieces::dropAllPieces()
{
    {
        std::lock_guard lock(mutex_);
        for (auto &job : jobs_)
            job->stale = true;
        jobs_.clear();
    }
    for (auto &task : tasks_)
        task->drop(); // those not started: every piece is stale now
}

Result<void> GzipPieces::finishMember(uint64_t endByte)
{
    // The bytes after the deflate data go back to the input: the trailer, then what follows.
    input_.putBack(regions_.takeFrom(endByte));
    dropAllPieces();
    sequential_.reset();
    auto ready = input_.ensure(8);
    if (!ready)
        return std::move(ready).error();
    if (input_.available() < 8)
        return fail(QStringLiteral("truncated: the file ends inside the trailer (after %1 bytes of output)").arg(size_));
    const uint8_t *t = input_.data();
    const uint32_t crc = uint32_t(t[0]) | uint32_t(t[1]) << 8 | uint32_t(t[2]) << 16 | uint32_t(t[3]) << 24;
    const uint32_t isize = uint32_t(t[4]) | uint32_t(t[5]) << 8 | uint32_t(t[6]) << 16 | uint32_t(t[7]) << 24;
    if (crc != crc_ || isize != uint32_t(size_))
        return fail(QStringLiteral("CRC-32 or length in the trailer does not match the data (corrupt)"));
    input_.consume(8);
    ended_ = true;
    return {};
}

Result<void> GzipPieces::feed(uint64_t &fedEnd, const uint8_t *&next, uint32_t &available)
{
    const GzipRegion *held = regions_.holding(fedEnd);
    while (!held) {
        auto more = regions_.readOne();
        if (!more)
            return std::move(more).error();
        if (!*more)
            return fail(QStringLiteral("truncated: the file ends inside the member (after %1 bytes of output)").arg(size_));
        held = regions_.holding(fedEnd);
    }
    const GzipRegion &r = *held;
    next = r.bytes.data() + (fedEnd - r.offset);
    available = uint32_t(r.end() - fedEnd);
    fedEnd = r.end();
    return {};
}

Result<void> GzipPieces::startHead()
{
    headTried_ = true;
    auto started = startTail();
    if (!started)
        return started;
    tail_->head = true; // a tail unless it is cut (armHead)
    return {};
}

// Once the start of the member is out (a reader that only looks at the start never gets here),
// the first piece is given its end: the first block start in a region ISA-L has not reached.
Result<void> GzipPieces::armHead()
{
    Tail &t = *tail_;
    t.armable = false;
    std::optional<uint64_t> stop;
    uint64_t stopRegion = 0;
    // ISA-L has been given whole regions: the first not given starts at fedEnd (or is unread).
    const uint64_t first = regions_.numberAt(t.fedEnd);
    for (uint64_t tries = 0; tries < kHeadSearch && !stop; ++tries) {
        const uint64_t want = first + tries;
        auto read = regions_.readThrough(want);
        if (!read)
            return std::move(read).error();
        if (!*read)
            break; // the member's end is near: no cut
        stop = regions_.number(want)->pieceStart();
        stopRegion = want;
    }
    if (!stop)
        return {};
    --counts_.tails; // a piece now
    t.stopBit = stop;
    t.stopRegion = stopRegion;
    t.safeEnd = std::max(t.fedEnd, *stop / 8 > 16 ? *stop / 8 - 16 : 0);
    // A few bytes before the stop: ISA-L keeps up to 8 in its bit buffer, and nothing it makes
    // from what it was given up to here can come from the final block put at the stop.
    auto byteAt = [&](uint64_t b) { return regions_.holding(b)->at(b); };
    for (uint64_t b = t.safeEnd; b < *stop / 8; ++b)
        t.last.push_back(byteAt(b));
    const auto final = deflate::finalBlockAt(byteAt(*stop / 8), unsigned(*stop % 8));
    t.last.insert(t.last.end(), final.begin(), final.end());
    return {};
}

Result<void> GzipPieces::startTail()
{
    dropAllPieces();
    auto t = std::make_unique<Tail>();
    isal_inflate_init(t->state.get());
    t->state->crc_flag = ISAL_DEFLATE;
    if (!window_.empty())
        isal_inflate_set_dict(t->state.get(), window_.data(), uint32_t(window_.size()));
    uint64_t byte = provenBit_ / 8;
    if (const unsigned shift = unsigned(provenBit_ % 8)) {
        const GzipRegion *r = regions_.holding(byte);
        if (!r)
            return fail(QStringLiteral("internal: the bytes of the last proven block are gone"));
        t->state->read_in = r->at(byte) >> shift;
        t->state->read_in_length = int32_t(8 - shift);
        ++byte;
    }
    t->fedEnd = byte;
    t->out = buffers_.take(kSequentialOutput);
    tail_ = std::move(t);
    ++counts_.tails;
    return {};
}

Result<void> GzipPieces::stepTail()
{
    Tail &t = *tail_;
    inflate_state &st = *t.state;
    if (t.head && t.armable && size_ >= options_.rampUp) {
        auto armed = armHead();
        if (!armed)
            return armed;
    }
    if (t.stopBit)
        dispatch(); // the pieces after the first: not for a reader that only looks at the start
    st.next_out = t.out.data.get();
    st.avail_out = uint32_t(std::min<size_t>(t.out.capacity, kSequentialOutput));
    auto handOut = [&](PieceBuffer bytes) {
        if (t.skip) { // already handed out before a restart
            const size_t drop = size_t(std::min<uint64_t>(t.skip, bytes.size));
            std::memmove(bytes.data.get(), bytes.data.get() + drop, bytes.size - drop);
            bytes.size -= drop;
            t.skip -= drop;
        }
        const uint32_t crc = crc32_gzip_refl(0, bytes.data.get(), bytes.size);
        deliver(std::move(bytes), crc);
    };
    while (st.avail_out > 0) {
        if (stopRequested())
            return Error::cancelled();
        if (st.avail_in == 0) {
            if (t.stopBit && t.fedEnd >= t.safeEnd) {
                if (t.inLast) // all of it given, and no finish
                    return restartHead();
                // What was made so far is the member's; what follows is held until proven.
                if (t.out.size) {
                    handOut(std::move(t.out));
                    t.out = buffers_.take(kSequentialOutput);
                    st.next_out = t.out.data.get();
                    st.avail_out = uint32_t(std::min<size_t>(t.out.capacity, kSequentialOutput));
                }
                t.inLast = true;
                st.next_in = t.last.data();
                st.avail_in = uint32_t(t.last.size());
            } else {
                const uint8_t *next = nullptr;
                auto fed = feed(t.fedEnd, next, st.avail_in);
                if (!fed)
                    return fed;
                if (t.stopBit && t.fedEnd > t.safeEnd) { // not past the safe end
                    st.avail_in -= uint32_t(t.fedEnd - t.safeEnd);
                    t.fedEnd = t.safeEnd;
                }
                st.next_in = const_cast<uint8_t *>(next);
            }
        }
        const uint32_t room = st.avail_out;
        const int rc = isal_inflate(&st);
        t.out.size += room - st.avail_out;
        if (rc < 0) {
            if (t.inLast)
                return restartHead(); // the block before the stop ran into the final block put there
            return Error::format(where_, t.fedEnd - st.avail_in, QStringLiteral("the gzip member starting at byte %1: %2").arg(memberStart_).arg(isalErrorText(rc)));
        }
        if (st.block_state == ISAL_BLOCK_FINISH) {
            if (t.inLast && st.avail_in == 0 && st.read_in_length == 0) {
                // The first piece ends exactly at the stop: the pieces take over from there.
                handOut(std::move(t.out));
                provenBit_ = *t.stopBit;
                piece_ = t.stopRegion;
                ++counts_.pieces;
                tail_.reset();
                return {};
            }
            // The member's own last block (a final block put at the stop is only ever read there).
            const uint64_t given = t.inLast ? t.safeEnd * 8 + (t.last.size() - st.avail_in) * 8 : (t.fedEnd - st.avail_in) * 8;
            const uint64_t endBit = given - uint64_t(st.read_in_length); // ISA-L keeps what it read past it
            handOut(std::move(t.out));
            tail_.reset();
            return finishMember((endBit + 7) / 8);
        }
        if (t.inLast && st.avail_out == 0)
            return restartHead(); // no real block makes this much from a few bytes
    }
    if (t.inLast)
        return {}; // (unreachable: the loop ends only by returning in the last part)
    handOut(std::move(t.out));
    t.out = buffers_.take(kSequentialOutput);
    // Regions behind ISA-L are not needed again (the first two stay for the pieces after them).
    const uint64_t keep = t.fedEnd - st.avail_in;
    if (!t.head)
        regions_.dropBehind(keep, 16); // its bit buffer holds up to 8
    return {};
}

// The first piece did not end at the next one's start (that was no block): ISA-L again from the
// member's start, to its end, dropping what was handed out already.
Result<void> GzipPieces::restartHead()
{
    const uint64_t delivered = size_;
    tail_.reset();
    provenBit_ = memberStartBit_;
    window_.clear();
    auto started = startTail();
    if (!started)
        return started;
    tail_->skip = delivered;
    return {};
}

Result<void> GzipPieces::nextOutput()
{
    if (sequential_)
        return stepSequential();
    if (tail_)
        return stepTail();
    if (!headTried_ && piece_ == 0)
        return startHead();
    dispatch();
    std::shared_ptr<Job> job = jobFor(piece_);
    if (!job)
        return startTail(); // the member's last region
    auto waited = wait(*job);
    if (!waited)
        return waited;
    if (job->outcome == Outcome::Decoded && job->start && *job->start == provenBit_) {
        auto used = fromPiece(*job);
        if (!used)
            return std::move(used).error();
        if (*used)
            return {};
        return startSequential();
    }
    if (job->outcome == Outcome::NoWindow && job->start && *job->start == provenBit_ && job->end) {
        // The window is known now: ISA-L does the piece here, as for the member's first.
        job->symbols.clear();
        job->outcome = inflatePiece(*job->here, *job->next, provenBit_, job->end, window_, job->bytes, job->why);
        if (job->outcome == Outcome::Decoded) {
            job->bytesCrc = crc32_gzip_refl(0, job->bytes.data.get(), job->bytes.size);
            ++counts_.redone;
            auto used = fromPiece(*job);
            if (!used)
                return std::move(used).error();
            return {};
        }
    }
    // zlib is for finding the way back to later pieces: with none left, ISA-L goes to the end.
    const bool noneLeft = regions_.upstreamEnded() && regions_.end() <= piece_ + 2;
    if ((job->outcome == Outcome::MemberEnds || noneLeft) && job->start && *job->start == provenBit_)
        return startTail();
    return startSequential();
}

Result<size_t> GzipPieces::read(std::span<char> out)
{
    size_t produced = 0;
    while (produced < out.size()) {
        if (stopRequested())
            return Error::cancelled();
        if (ready_.empty()) {
            if (ended_)
                break;
            auto more = nextOutput();
            if (!more)
                return std::move(more).error();
            continue;
        }
        auto &front = ready_.front();
        const size_t n = std::min(out.size() - produced, front.size - readyAt_);
        std::memcpy(out.data() + produced, front.data.get() + readyAt_, n);
        produced += n;
        readyAt_ += n;
        if (readyAt_ == front.size) {
            buffers_.give(std::move(front));
            ready_.pop_front();
            readyAt_ = 0;
        }
    }
    return produced;
}

} // namespace asc
