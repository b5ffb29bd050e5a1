// SPDX-License-Identifier: MIT
#pragma once
// How io_uring rings are made. A process that may set one up makes its own. A sandboxed worker
// may not: a ring made under its seccomp filter could open files behind the filter's back, and
// rings cannot be passed between processes. So a worker that benchmarks makes a few rings
// before it locks down (prepareRingPool), each restricted by the kernel to reads, no-ops and the
// registration of files; its readers then borrow them and give them back.

#include "io/result.h"

#include <liburing.h>

namespace asc {

struct RingRequest {
    unsigned entries = 1;
    bool kernelPolling = false; // SQPOLL: a kernel thread takes submissions
};

struct RingPoolSize {
    int plain = 0;
    int polled = 0; // with a kernel polling thread each
};
// Rings a borrowed ring has (a request for more fails): above every queue the readers use.
constexpr unsigned kPooledRingEntries = 64;

// Before the lockdown: makes the pool. From then on every ring comes from it.
Result<void> prepareRingPool(const RingPoolSize &size);

// Sets `ring` up: made here, or borrowed from the pool (a polled one when asked and free, else a
// plain one). Returns whether the ring has a kernel polling thread. endRing() gives it back.
Result<bool> setUpRing(const RingRequest &request, io_uring *ring);
// Tears `ring` down (every read it submitted has completed), or returns it to the pool.
void endRing(io_uring *ring);

} // namespace asc
