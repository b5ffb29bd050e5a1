// SPDX-License-Identifier: MIT
#pragma once
// One pool of decoding threads for the whole process, shared by every decoder of ours (bzip2
// blocks, gzip pieces, qcow2's compressed clusters): a decoder submits a task and keeps its
// handle; it may drop a task that has not started, and waits for one with the one cancellable
// wait (io/cancel.h). A task that throws ends with an Error instead of std::terminate, so an
// allocation that fails on a decoding thread is that task's error. One thread-count policy
// (decodeThreads) and one memory budget (DecodeBudget) for all of them: with several decoders
// at work (a nested archive inside another) they share the cores and the worker's address space
// instead of each starting a thread per core.

#include "io/result.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace asc {

// Threads the shared pool has: one per core this process may run on (at least 2, so that a
// decoder's planning and its tasks overlap even on one core), at most 16.
unsigned decodeThreads();

class DecodeTask {
public:
    enum class State { Queued,
                       Running,
                       Finished,
                       Dropped };

    // Takes it off the queue if it has not started: it never runs (wait() says so). A task
    // already running runs to its end.
    void drop();
    // Waits for its end, asking stopRequested() as io/cancel.h's wait does (Cancelled then); the
    // task's own error, or Cancelled if it was dropped before it ran.
    Result<void> wait();
    // Waits for its end whatever the thread's stop says (a destructor whose tasks use it).
    void join();
    State state() const;

private:
    friend class DecodePool;
    explicit DecodeTask(std::function<Result<void>()> work);
    void run();

    std::function<Result<void>()> work_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    State state_ = State::Queued;
    std::optional<Error> error_;
};
using DecodeHandle = std::shared_ptr<DecodeTask>;

class DecodePool {
public:
    explicit DecodePool(unsigned threads);
    ~DecodePool(); // drops what is queued, joins the threads
    DecodePool(const DecodePool &) = delete;
    DecodePool &operator=(const DecodePool &) = delete;

    // The process's pool (decodeThreads() threads, started as tasks come; never destroyed, so
    // that no decoder outlives it).
    static DecodePool &shared();

    DecodeHandle submit(std::function<Result<void>()> work);
    unsigned threads() const { return threads_; }
    // Threads started so far (they start as tasks come, up to threads()).
    size_t started() const;

private:
    void loop();

    const unsigned threads_;
    mutable std::mutex mutex_;
    std::condition_variable work_;
    std::deque<DecodeHandle> queue_;
    std::vector<std::thread> running_;
    size_t idle_ = 0;
    bool stop_ = false;
};

// Bytes of decoded output the process's decoders may hold ahead of their readers, shared: a
// decoder plans a block or piece ahead only when its bytes fit (its first one always may, so
// every decoder makes progress). Sized from the address-space limit of a sandboxed worker.
class DecodeBudget {
public:
    explicit DecodeBudget(uint64_t bytes)
        : capacity_(bytes)
    {
    }
    static DecodeBudget &shared();

    // What a reservation holds; gives it back when destroyed.
    class Lease {
    public:
        Lease() = default;
        Lease(Lease &&other) noexcept;
        Lease &operator=(Lease &&other) noexcept;
        ~Lease();
        uint64_t bytes() const { return bytes_; }

    private:
        friend class DecodeBudget;
        Lease(DecodeBudget *budget, uint64_t bytes);
        DecodeBudget *budget_ = nullptr;
        uint64_t bytes_ = 0;
    };
    // `bytes` if they fit, or when `first` (the caller holds nothing yet); empty otherwise.
    std::optional<Lease> reserve(uint64_t bytes, bool first);
    uint64_t held() const;
    uint64_t capacity() const { return capacity_; }

private:
    void release(uint64_t bytes);
    const uint64_t capacity_;
    mutable std::mutex mutex_;
    uint64_t held_ = 0;
};

} // namespace asc
