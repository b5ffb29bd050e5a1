// SPDX-License-Identifier: MIT
#pragma once
// Asynchronous positional reads with several in flight, on io_uring or, where a ring cannot be
// set up (or the source is not a plain file range), on a thread pool.
// Contract: one AsyncReader belongs to one thread (the "owner"); completion callbacks run on the
// owner inside readAt/reap/drain/await, like an event loop. Buffers must stay valid until their
// completion has been reaped. Destruction waits for reads still in flight.

#include "byte_source.h"

#include <QFuture>
#include <functional>
#include <memory>
#include <vector>

namespace asc {

enum class AsyncBackend { Auto,
                          IoUring,
                          ThreadPool };

// Thresholds of useOtherCore() and AsyncOptions::offloadReads (see useOtherCore).
constexpr size_t kPolledReadsBelow = 64 * 1024;
constexpr size_t kOffloadedReadsFrom = 1024 * 1024;

struct AsyncOptions {
    int queueDepth = 4; // reads kept in flight at most
    AsyncBackend backend = AsyncBackend::Auto;
    // io_uring only. A kernel thread takes submissions and does the (page-cache) reads on another
    // core while the owner works, and the owner polls briefly for completions before sleeping:
    // small reads then cost no system call each. Uses a second core while reading.
    bool kernelPolling = false;
    // io_uring only. Reads of kOffloadedReadsFrom bytes or more are handed to io_uring's worker
    // threads instead of being done inline at submission: they copy on another core while the
    // owner works (smaller ones would only wait for a worker to wake).
    bool offloadReads = false;
    // Test hook: rewrites a kernel completion result (bytes or -errno) before it is handled,
    // to inject short reads, EINTR or EIO into the real completion path.
    std::function<int(uint64_t offset, int result)> completionFilter;
};

// Puts a stream of reads of `readSize` on the other core where that pays, as measured on a 2-core
// machine (bench/README.md, pxar): small reads are dominated by per-read cost, which a polling
// kernel thread removes (no system call per read, done on the other core); large reads by the
// copy out of the page cache, which io_uring's workers do on the other core while the owner
// works; in between, reads done inline at submission win (hand-offs cost more than they overlap).
void useOtherCore(AsyncOptions &options, size_t readSize);

class AsyncReader {
public:
    using Done = std::function<void(Result<size_t>)>;

    // Auto picks io_uring when the source is a plain file (or a slice of one) and a ring can be
    // created, else the thread pool; fallbackReason() says why io_uring was not used.
    static Result<std::unique_ptr<AsyncReader>> create(SourcePtr source, AsyncOptions options = {});
    virtual ~AsyncReader();

    // Starts a read of min(buf.size(), size - offset) bytes. With queueDepth reads in flight it
    // first reaps one completion (running its callback).
    void readAt(uint64_t offset, std::span<char> buf, Done done);
    const AsyncOptions &options() const { return options_; }
    // The same read as a future; it completes when the owner reaps (reap/drain/await).
    QFuture<Result<size_t>> read(uint64_t offset, std::span<char> buf);
    // Reaps until `future` is finished and returns its result.
    Result<size_t> await(QFuture<Result<size_t>> future);

    // Runs callbacks of finished reads; with wait, blocks until at least one finished.
    size_t reap(bool wait);
    // Reaps until nothing is in flight.
    void drain();

    int inFlight() const { return inFlight_; }
    int peakInFlight() const { return peakInFlight_; }
    int queueDepth() const { return int(slots_.size()); }
    const SourcePtr &source() const { return source_; }
    virtual QString backendName() const = 0;
    const QString &fallbackReason() const { return fallbackReason_; }

protected:
    struct Slot {
        uint64_t offset = 0;
        std::span<char> buf;
        size_t want = 0; // bytes this read must deliver (clamped at the end of the source)
        size_t done = 0; // bytes delivered so far (short reads are continued)
        int retries = 0;
        Done callback;
    };
    struct Completion {
        int slot;
        Result<size_t> result;
    };

    AsyncReader(SourcePtr source, const AsyncOptions &options);
    // Starts (or continues, after a short read) the read in `slot`.
    virtual void start(int slot) = 0;
    // The next finished read, if any; with wait, blocks until one exists (something is in flight).
    virtual std::optional<Completion> next(bool wait) = 0;

    Slot &slot(int index) { return slots_[size_t(index)]; }
    int filtered(uint64_t offset, int result) const
    {
        return options_.completionFilter ? options_.completionFilter(offset, result) : result;
    }

    SourcePtr source_;
    AsyncOptions options_;
    QString fallbackReason_;

private:
    void finish(Completion completion);

    std::vector<Slot> slots_;
    std::vector<int> freeSlots_;
    int inFlight_ = 0;
    int peakInFlight_ = 0;
};

// "io_uring" or "thread pool", and why, as `strategies` shows it.
QString describeAsyncBackend();

} // namespace asc
