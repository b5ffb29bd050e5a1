// SPDX-License-Identifier: MIT
#include "ring_pool.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace asc {

namespace {

constexpr unsigned kPollerIdleMs = 10; // as io/ring_source.cpp

struct PooledRing {
    io_uring ring{};
    bool polled = false;
    bool lent = false;
};

struct Pool {
    std::mutex lock;
    std::vector<PooledRing> rings;
};

Pool &pool()
{
    static Pool made;
    return made;
}

Error failed(const char *what, int errnum)
{
    return Error::system({}, QString::fromLatin1(what), errnum);
}

// A ring whose only operations are reads and no-ops and whose only registrations are of files:
// what a parser that has been hijacked could do with it is read the descriptors it already holds.
Result<void> makeRestrictedRing(bool polled, io_uring *ring)
{
    io_uring_params params{};
    params.flags = IORING_SETUP_R_DISABLED | (polled ? IORING_SETUP_SQPOLL : 0);
    params.sq_thread_idle = kPollerIdleMs;
    if (const int rc = io_uring_queue_init_params(kPooledRingEntries, ring, &params); rc < 0)
        return failed("io_uring_queue_init", -rc);
    auto rule = [](uint16_t kind, uint8_t value) {
        io_uring_restriction r{};
        r.opcode = kind;
        r.sqe_op = value; // the union's one byte: an operation, a registration or flags
        return r;
    };
    io_uring_restriction rules[] = {
        rule(IORING_RESTRICTION_SQE_OP, IORING_OP_READ),
        rule(IORING_RESTRICTION_SQE_OP, IORING_OP_NOP),
        rule(IORING_RESTRICTION_REGISTER_OP, IORING_REGISTER_FILES),
        rule(IORING_RESTRICTION_REGISTER_OP, IORING_UNREGISTER_FILES),
        rule(IORING_RESTRICTION_SQE_FLAGS_ALLOWED, IOSQE_FIXED_FILE | IOSQE_ASYNC),
    };
    // liburing 2.3 declares io_uring_register_restrictions and io_uring_enable_rings but its
    // library does not export them: the registrations themselves.
    const auto fd = unsigned(ring->ring_fd);
    int rc = io_uring_register(fd, IORING_REGISTER_RESTRICTIONS, rules, unsigned(std::size(rules)));
    if (rc >= 0)
        rc = io_uring_register(fd, IORING_REGISTER_ENABLE_RINGS, nullptr, 0);
    if (rc < 0) {
        io_uring_queue_exit(ring);
        return failed("io_uring_register(restrictions)", -rc);
    }
    return {};
}

class PoolLender final : public RingLender {
public:
    Result<bool> lend(const RingRequest &request, io_uring *ring) override
    {
        Pool &p = pool();
        const std::lock_guard<std::mutex> lock(p.lock);
        if (std::max(1u, request.entries) > kPooledRingEntries)
            return failed("io_uring ring of the worker's pool (too few entries)", EINVAL);
        PooledRing *chosen = nullptr;
        for (PooledRing &pooled : p.rings)
            if (!pooled.lent && (!chosen || pooled.polled == request.kernelPolling))
                chosen = &pooled;
        if (!chosen)
            return failed("io_uring ring of the worker's pool (all in use)", EBUSY);
        chosen->lent = true;
        *ring = chosen->ring;
        return chosen->polled;
    }

    bool takeBack(io_uring *ring) override
    {
        Pool &p = pool();
        const std::lock_guard<std::mutex> lock(p.lock);
        for (PooledRing &pooled : p.rings) {
            if (pooled.lent && pooled.ring.ring_fd == ring->ring_fd) {
                // Back as it was lent, but where the borrower left the queue positions.
                io_uring_unregister_files(ring);
                pooled.ring = *ring;
                pooled.lent = false;
                return true;
            }
        }
        return false;
    }
};

} // namespace

Result<void> prepareRingPool(const RingPoolSize &size)
{
    Pool &p = pool();
    static PoolLender lender;
    lendRingsFrom(&lender); // from now on, even if making them fails: no ring made after the lockdown
    const std::lock_guard<std::mutex> lock(p.lock);
    p.rings.reserve(size_t(size.plain + size.polled));
    for (int i = 0; i < size.plain + size.polled; ++i) {
        PooledRing pooled;
        pooled.polled = i >= size.plain;
        auto made = makeRestrictedRing(pooled.polled, &pooled.ring);
        // A kernel or policy without polling threads: a plain ring reads the same bytes.
        if (!made && pooled.polled) {
            pooled.polled = false;
            made = makeRestrictedRing(false, &pooled.ring);
        }
        if (!made)
            return made; // no io_uring here: readers use the thread pool, as without a sandbox
        p.rings.push_back(pooled);
    }
    return {};
}

} // namespace asc
