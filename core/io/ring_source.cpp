// SPDX-License-Identifier: MIT
#include "ring_source.h"

#include <algorithm>
#include <atomic>

namespace asc {

namespace {

constexpr unsigned kPollerIdleMs = 10; // the kernel thread keeps polling this long after the last submission

std::atomic<RingLender *> lenderOfRings{nullptr};

} // namespace

void lendRingsFrom(RingLender *lender)
{
    lenderOfRings.store(lender, std::memory_order_release);
}

Result<bool> setUpRing(const RingRequest &request, io_uring *ring)
{
    if (RingLender *lender = lenderOfRings.load(std::memory_order_acquire))
        return lender->lend(request, ring);
    const unsigned entries = std::max(1u, request.entries);
    if (request.kernelPolling) {
        io_uring_params params{};
        params.flags = IORING_SETUP_SQPOLL;
        params.sq_thread_idle = kPollerIdleMs;
        // Refused here (old kernel, policy): an ordinary ring reads the same bytes.
        if (io_uring_queue_init_params(entries, ring, &params) == 0)
            return true;
    }
    if (const int rc = io_uring_queue_init(entries, ring, 0); rc < 0)
        return Error::system({}, QStringLiteral("io_uring_queue_init"), -rc);
    return false;
}

void endRing(io_uring *ring)
{
    if (RingLender *lender = lenderOfRings.load(std::memory_order_acquire); lender && lender->takeBack(ring))
        return;
    io_uring_queue_exit(ring);
}

} // namespace asc
