// SPDX-License-Identifier: MIT
#include "uring_reader.h"
#include "io/ring_source.h"
#include "io/trace.h"

#include <cerrno>
#include <chrono>
#include <cstring>

namespace asc {

UringReader::UringReader(SourcePtr source, const AsyncOptions &options)
    : AsyncReader(std::move(source), options)
{
}

Result<std::unique_ptr<UringReader>> UringReader::create(SourcePtr source, const AsyncOptions &options)
{
    std::unique_ptr<UringReader> reader(new UringReader(source, options));
    auto polled = setUpRing({unsigned(std::max(1, options.queueDepth)), options.kernelPolling}, &reader->ring_);
    if (!polled) {
        reader->ring_.ring_fd = -1;
        Error error = std::move(polled).error();
        error.file = source->name();
        return error;
    }
    reader->options_.kernelPolling = *polled;
    // The file registered once: the kernel then skips looking the descriptor up for every read.
    if (auto extent = source->fileExtent(0); extent && io_uring_register_files(&reader->ring_, &extent->fd, 1) == 0)
        reader->registeredFd_ = extent->fd;
    return reader;
}

Result<void> UringReader::probe()
{
    io_uring ring{};
    auto made = setUpRing({}, &ring);
    if (!made)
        return std::move(made).error();
    endRing(&ring);
    return {};
}

QString UringReader::libraryVersion()
{
    return QStringLiteral(LIBURING_VERSION);
}

UringReader::~UringReader()
{
    if (ring_.ring_fd < 0)
        return;
    flush();
    // The kernel may still write into caller buffers: wait for every submitted read.
    while (submitted_ > 0) {
        io_uring_cqe *cqe = nullptr;
        int rc = io_uring_wait_cqe(&ring_, &cqe);
        if (rc == -EINTR)
            continue;
        if (rc < 0)
            break;
        io_uring_cqe_seen(&ring_, cqe);
        --submitted_;
    }
    endRing(&ring_);
}

void UringReader::start(int index)
{
    Slot &s = slot(index);
    const size_t remaining = s.want - s.done;
    const uint64_t at = s.offset + s.done;
    auto extent = remaining > 0 ? source_->fileExtent(at) : std::nullopt;
    if (remaining == 0) {
        ready_.push_back({index, s.done});
        return;
    }
    if (!extent) {
        // Not backed by a file here (cannot happen for sources create() accepted): read in place.
        auto got = source_->readAt(at, s.buf.subspan(s.done, remaining));
        ready_.push_back({index, got ? Result<size_t>(s.done + *got) : Result<size_t>(std::move(got).error())});
        return;
    }
    io_uring_sqe *sqe = io_uring_get_sqe(&ring_);
    while (!sqe) { // the SQ ring is full of unsubmitted entries: push them to the kernel
        flush();
        sqe = io_uring_get_sqe(&ring_);
    }
    const size_t len = size_t(std::min<uint64_t>(remaining, extent->length));
    const bool fixed = extent->fd == registeredFd_;
    io_uring_prep_read(sqe, fixed ? 0 : extent->fd, s.buf.data() + s.done, unsigned(std::min<size_t>(len, 1u << 30)),
                       extent->fileOffset);
    // Only large reads are worth a worker's wake-up (a stream of small files would wait on each).
    const bool offload = options_.offloadReads && len >= kOffloadedReadsFrom;
    sqe->flags |= (fixed ? IOSQE_FIXED_FILE : 0) | (offload ? IOSQE_ASYNC : 0);
    io_uring_sqe_set_data64(sqe, uint64_t(index));
    ++submitted_;
    ++unsubmitted_;
    // Hand reads to the kernel in small batches (half the queue depth): one system call for
    // several reads, while still keeping reads in flight ahead of the consumer. A polling kernel
    // thread takes each at once (no system call).
    if (options_.kernelPolling || unsubmitted_ >= std::max(1, queueDepth() / 2))
        flush();
}

void UringReader::flush()
{
    if (unsubmitted_ == 0)
        return;
    int rc;
    do {
        rc = io_uring_submit(&ring_);
    } while (rc == -EINTR);
    if (rc >= 0)
        unsubmitted_ = std::max(0, unsubmitted_ - rc);
}

std::optional<AsyncReader::Completion> UringReader::handle(int index, int result)
{
    Slot &s = slot(index);
    const uint64_t at = s.offset + s.done;
    result = filtered(at, result);
    if (result == -EINTR || result == -EAGAIN) {
        if (++s.retries > 1000)
            return Completion{index, Error::system(source_->name(), QStringLiteral("read"), -result, at)};
        start(index);
        return std::nullopt;
    }
    if (result < 0)
        return Completion{index, Error::system(source_->name(), QStringLiteral("read"), -result, at)};
    if (result == 0) // the file ended early (shrank): deliver what we have
        return Completion{index, s.done};
    if (IoTrace::enabled()) {
        const TraceLayer layer("io_uring");
        IoTrace::record(source_->name(), at, uint64_t(result));
    }
    s.done += size_t(result);
    if (s.done < s.want) { // short read: continue where it stopped
        start(index);
        return std::nullopt;
    }
    return Completion{index, s.done};
}

static inline void relax()
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause(); // lets the sibling hyperthread run while we spin
#endif
}

int UringReader::pollCompletion(io_uring_cqe **cqe)
{
    // The polling thread usually finishes a small read within a microsecond or two; sleeping in
    // the kernel for each would cost two context switches. Bounded, so a starved poller (a busy
    // machine) only costs this much before we sleep.
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(50);
    for (int spin = 1;; ++spin) {
        int rc = io_uring_peek_cqe(&ring_, cqe);
        if (rc != -EAGAIN)
            return rc;
        if ((spin & 63) == 0 && std::chrono::steady_clock::now() > until)
            return rc;
        relax();
    }
}

std::optional<AsyncReader::Completion> UringReader::next(bool wait)
{
    for (;;) {
        if (!ready_.empty()) {
            Completion c = std::move(ready_.front());
            ready_.pop_front();
            return c;
        }
        if (submitted_ == 0)
            return std::nullopt;
        io_uring_cqe *cqe = nullptr;
        int rc = io_uring_peek_cqe(&ring_, &cqe);
        if (rc == -EAGAIN && wait && options_.kernelPolling && unsubmitted_ == 0)
            rc = pollCompletion(&cqe);
        if (rc == -EAGAIN && unsubmitted_ > 0) {
            // Nothing finished yet: submit what is queued and, if asked, wait, in one call.
            const int queued = unsubmitted_;
            rc = wait ? io_uring_submit_and_wait(&ring_, 1) : io_uring_submit(&ring_);
            if (rc >= 0) {
                unsubmitted_ = std::max(0, queued - rc);
                rc = io_uring_peek_cqe(&ring_, &cqe);
            }
        }
        if (rc == -EAGAIN && wait)
            rc = io_uring_wait_cqe(&ring_, &cqe);
        if (rc == -EINTR)
            continue;
        if (rc < 0 || !cqe)
            return std::nullopt; // -EAGAIN from peek: nothing finished yet
        const int index = int(io_uring_cqe_get_data64(cqe));
        const int result = cqe->res;
        io_uring_cqe_seen(&ring_, cqe);
        --submitted_;
        if (auto done = handle(index, result))
            return done;
    }
}

} // namespace asc
