// SPDX-License-Identifier: MIT
#pragma once
// A cancel flag shared between a requester (UI, signal handler) and a worker that checks it per
// I/O chunk. Thread safe, lock free.

#include "io/result.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>

namespace asc {

class CancelFlag {
public:
    void cancel() { cancelled_->store(true, std::memory_order_relaxed); }
    bool isCancelled() const { return cancelled_->load(std::memory_order_relaxed); }

private:
    std::shared_ptr<std::atomic<bool>> cancelled_ = std::make_shared<std::atomic<bool>>(false);
};

// Makes a stop request reach the I/O: while a scope is alive on a thread, every read of a plain
// file or mapping on that thread (FileSource, MmapSource: what every parser, libarchive's read
// callback and The Sleuth Kit's image callback end in) asks `stopped` first and fails with
// ErrorKind::Cancelled once it says yes. So Stop takes effect within one read, even inside one
// huge entry, without threading a flag through every parser. Scopes nest; the innermost wins.
class CancelScope {
public:
    explicit CancelScope(std::function<bool()> stopped);
    explicit CancelScope(const CancelFlag &flag);
    ~CancelScope();
    CancelScope(const CancelScope &) = delete;
    CancelScope &operator=(const CancelScope &) = delete;

private:
    std::function<bool()> stopped_;
    CancelScope *outer_;
};

// Whether this thread's innermost CancelScope asks to stop (false without a scope).
bool stopRequested();

// Waits on `changed` (with `lock` held) until `ready()`, asking stopRequested() every 50 ms:
// a reader waiting for a decoding thread stops within that when asked to.
template <typename Ready>
Result<void> waitUnlessStopped(std::condition_variable &changed, std::unique_lock<std::mutex> &lock, Ready ready)
{
    while (!ready()) {
        if (stopRequested())
            return Error::cancelled();
        changed.wait_for(lock, std::chrono::milliseconds(50));
    }
    return {};
}

} // namespace asc
