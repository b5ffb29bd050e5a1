// SPDX-License-Identifier: MIT
#pragma once
// AsyncReader on io_uring: reads of the underlying file are submitted to the kernel, up to the
// queue depth at once; short reads are continued and EINTR/EAGAIN retried. The source's file is
// registered with the ring (no descriptor lookup per read); see AsyncOptions for kernel polling
// (SQPOLL) and offloaded reads (IOSQE_ASYNC).

#include "async_reader.h"

#include <deque>
#include <liburing.h>

namespace asc {

class UringReader final : public AsyncReader {
public:
    static Result<std::unique_ptr<UringReader>> create(SourcePtr source, const AsyncOptions &options);
    // Whether this process can set up a ring at all.
    static Result<void> probe();
    static QString libraryVersion();
    ~UringReader() override;

    QString backendName() const override { return QStringLiteral("io_uring"); }

protected:
    void start(int slot) override;
    std::optional<Completion> next(bool wait) override;

private:
    UringReader(SourcePtr source, const AsyncOptions &options);
    std::optional<Completion> handle(int slot, int result);
    void flush();
    // With kernel polling: spins a few microseconds for a completion before sleeping in the kernel.
    int pollCompletion(io_uring_cqe **cqe);

    io_uring ring_{};
    int registeredFd_ = -1; // the source's file, registered as fixed file 0
    int submitted_ = 0; // operations queued or with the kernel, not yet completed
    int unsubmitted_ = 0; // queued in the SQ ring, not yet handed to the kernel
    std::deque<Completion> ready_; // finished without the kernel (end of source, non-file ranges)
};

} // namespace asc
