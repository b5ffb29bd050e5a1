// SPDX-License-Identifier: MIT
#include "async_reader.h"

#include "thread_pool_reader.h"
#include "uring_reader.h"

#include <QPromise>

namespace asc {

AsyncReader::AsyncReader(SourcePtr source, const AsyncOptions &options)
    : source_(std::move(source)),
      options_(options)
{
    const int depth = std::max(1, options_.queueDepth);
    slots_.resize(size_t(depth));
    for (int i = depth - 1; i >= 0; --i)
        freeSlots_.push_back(i);
}

AsyncReader::~AsyncReader() = default;

void useOtherCore(AsyncOptions &options, size_t readSize)
{
    options.kernelPolling = readSize > 0 && readSize < kPolledReadsBelow;
    options.offloadReads = readSize >= kOffloadedReadsFrom;
}

Result<std::unique_ptr<AsyncReader>> AsyncReader::create(SourcePtr source, AsyncOptions options)
{
    QString reason;
    if (options.backend != AsyncBackend::ThreadPool) {
        if (!source->fileExtent(0) && source->size() > 0) {
            reason = QStringLiteral("the source is not a plain file range");
        } else {
            auto uring = UringReader::create(source, options);
            if (uring)
                return std::unique_ptr<AsyncReader>(std::move(uring).value());
            reason = uring.error().withoutFile();
        }
        if (options.backend == AsyncBackend::IoUring)
            return Error::make(ErrorKind::Unsupported, source->name(),
                               QStringLiteral("io_uring unavailable: ") + reason);
    }
    auto pool = std::make_unique<ThreadPoolReader>(source, options);
    pool->fallbackReason_ = reason;
    return std::unique_ptr<AsyncReader>(std::move(pool));
}

void AsyncReader::readAt(uint64_t offset, std::span<char> buf, Done done)
{
    while (freeSlots_.empty())
        reap(true);
    const int index = freeSlots_.back();
    freeSlots_.pop_back();
    Slot &s = slot(index);
    const uint64_t size = source_->size();
    s.offset = offset;
    s.buf = buf;
    s.want = offset >= size ? 0 : size_t(std::min<uint64_t>(buf.size(), size - offset));
    s.done = 0;
    s.retries = 0;
    s.callback = std::move(done);
    ++inFlight_;
    peakInFlight_ = std::max(peakInFlight_, inFlight_);
    start(index);
}

QFuture<Result<size_t>> AsyncReader::read(uint64_t offset, std::span<char> buf)
{
    auto promise = std::make_shared<QPromise<Result<size_t>>>();
    QFuture<Result<size_t>> future = promise->future();
    promise->start();
    readAt(offset, buf, [promise](Result<size_t> result) {
        promise->addResult(std::move(result));
        promise->finish();
    });
    return future;
}

Result<size_t> AsyncReader::await(QFuture<Result<size_t>> future)
{
    while (!future.isFinished())
        reap(true);
    return future.result();
}

size_t AsyncReader::reap(bool wait)
{
    size_t ran = 0;
    while (inFlight_ > 0) {
        auto completion = next(wait && ran == 0);
        if (!completion)
            break;
        finish(std::move(*completion));
        ++ran;
    }
    return ran;
}

void AsyncReader::drain()
{
    while (inFlight_ > 0)
        reap(true);
}

void AsyncReader::finish(Completion completion)
{
    Slot &s = slot(completion.slot);
    Done callback = std::move(s.callback);
    s.callback = nullptr;
    --inFlight_;
    freeSlots_.push_back(completion.slot);
    if (callback)
        callback(std::move(completion.result));
}

QString describeAsyncBackend()
{
    auto probe = UringReader::probe();
    if (probe)
        return QStringLiteral("io_uring (liburing %1)").arg(UringReader::libraryVersion());
    return QStringLiteral("thread pool (io_uring unavailable: %1)").arg(probe.error().withoutFile());
}

} // namespace asc
