// SPDX-License-Identifier: MIT
#pragma once
// io_uring rings for a sandboxed worker. A ring made under its seccomp filter could open files
// behind the filter's back, and rings cannot be passed between processes. So a worker that
// benchmarks makes a few rings before it locks down, each restricted by the kernel to reads,
// no-ops and the registration of files, and lends them to its readers (io/ring_source.h).

#include "io/ring_source.h"

namespace asc {

struct RingPoolSize {
    int plain = 0;
    int polled = 0; // with a kernel polling thread each
};
// Entries a lent ring has (a request for more fails): above every queue the readers use.
constexpr unsigned kPooledRingEntries = 64;

// Before the lockdown: makes the pool. From then on every ring comes from it.
Result<void> prepareRingPool(const RingPoolSize &size);

} // namespace asc
