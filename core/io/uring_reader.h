#pragma once
// AsyncReader on io_uring: reads of the underlying file are submitted to the kernel, up to the
// queue depth at once; short reads are continued and EINTR/EAGAIN retried.

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

    io_uring ring_{};
    int submitted_ = 0;             // operations queued or with the kernel, not yet completed
    int unsubmitted_ = 0;           // queued in the SQ ring, not yet handed to the kernel
    std::deque<Completion> ready_;  // finished without the kernel (end of source, non-file ranges)
};

} // namespace asc
