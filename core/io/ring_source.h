// SPDX-License-Identifier: MIT
#pragma once
// Where a reader's io_uring ring comes from. A process that may set one up makes its own. A
// sandboxed worker may not (sandbox/ring_pool.h says why): before its lockdown it installs a
// lender, and from then on every ring is borrowed from it and given back.

#include "io/result.h"

#include <liburing.h>

namespace asc {

struct RingRequest {
    unsigned entries = 1;
    bool kernelPolling = false; // SQPOLL: a kernel thread takes submissions
};

// Rings made elsewhere (the sandbox's pool), lent to readers.
class RingLender {
public:
    virtual ~RingLender() = default;
    // Fills `ring` with one of its rings; returns whether it has a kernel polling thread.
    virtual Result<bool> lend(const RingRequest &request, io_uring *ring) = 0;
    // True when `ring` was one of its own (now back with it).
    virtual bool takeBack(io_uring *ring) = 0;
};

// Once set, every ring comes from `lender` (it lives as long as the process).
void lendRingsFrom(RingLender *lender);

// Sets `ring` up: made here, or borrowed. Returns whether the ring has a kernel polling thread.
// endRing() gives it back.
Result<bool> setUpRing(const RingRequest &request, io_uring *ring);
// Tears `ring` down (every read it submitted has completed), or returns it to its lender.
void endRing(io_uring *ring);

} // namespace asc
