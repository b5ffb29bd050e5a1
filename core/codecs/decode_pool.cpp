// SPDX-License-Identifier: MIT
#include "decode_pool.h"

#include "io/cancel.h"

#include <QThread>
#include <algorithm>
#include <cerrno>
#include <utility>
#include <new>

namespace asc {

unsigned decodeThreads()
{
    // Qt counts the CPUs this process may run on (sched_getaffinity, allowed in the worker).
    return unsigned(std::clamp(QThread::idealThreadCount(), 2, 16));
}

DecodeTask::DecodeTask(std::function<Result<void>()> work)
    : work_(std::move(work))
{
}

void DecodeTask::run()
{
    {
        std::lock_guard lock(mutex_);
        if (state_ != State::Queued)
            return; // dropped
        state_ = State::Running;
    }
    std::optional<Error> error;
    // An exception must not leave a decoding thread (std::terminate): it is this task's error.
    try {
        if (auto done = work_(); !done)
            error = std::move(done).error();
    } catch (const std::bad_alloc &) {
        error = Error::system({}, QStringLiteral("decode"), ENOMEM); // the memory limit, as a failed allocation anywhere
    } catch (const std::exception &e) {
        error = Error::make(ErrorKind::Format, {}, QStringLiteral("decoding failed: %1").arg(QString::fromLocal8Bit(e.what())));
    }
    {
        std::lock_guard lock(mutex_);
        error_ = std::move(error);
        state_ = State::Finished;
        work_ = nullptr; // what it captured goes now, not with the last handle
    }
    changed_.notify_all();
}

void DecodeTask::drop()
{
    {
        std::lock_guard lock(mutex_);
        if (state_ != State::Queued)
            return;
        state_ = State::Dropped;
        work_ = nullptr;
    }
    changed_.notify_all();
}

Result<void> DecodeTask::wait()
{
    std::unique_lock lock(mutex_);
    if (auto waited = waitUnlessStopped(changed_, lock, [this] { return state_ == State::Finished || state_ == State::Dropped; }); !waited)
        return waited;
    if (state_ == State::Dropped)
        return Error::cancelled();
    if (error_)
        return *error_;
    return {};
}

void DecodeTask::join()
{
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return state_ == State::Finished || state_ == State::Dropped; });
}

DecodeTask::State DecodeTask::state() const
{
    std::lock_guard lock(mutex_);
    return state_;
}

DecodePool::DecodePool(unsigned threads)
    : threads_(std::max(1u, threads))
{
}

DecodePool::~DecodePool()
{
    std::deque<DecodeHandle> dropped;
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
        dropped.swap(queue_);
    }
    for (auto &task : dropped)
        task->drop();
    work_.notify_all();
    for (auto &t : running_)
        t.join();
}

DecodePool &DecodePool::shared()
{
    static DecodePool *pool = new DecodePool(decodeThreads()); // never destroyed: see the header
    return *pool;
}

DecodeHandle DecodePool::submit(std::function<Result<void>()> work)
{
    DecodeHandle task(new DecodeTask(std::move(work)));
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(task);
        // A thread more while the tasks waiting outnumber the idle threads (an idle thread
        // woken for one task may not have taken it yet), up to the pool's size.
        if (queue_.size() > idle_ && running_.size() < threads_)
            running_.emplace_back([this] { loop(); });
    }
    work_.notify_one();
    return task;
}

size_t DecodePool::started() const
{
    std::lock_guard lock(mutex_);
    return running_.size();
}

void DecodePool::loop()
{
    for (;;) {
        DecodeHandle task;
        {
            std::unique_lock lock(mutex_);
            ++idle_;
            work_.wait(lock, [this] { return stop_ || !queue_.empty(); });
            --idle_;
            if (stop_)
                return;
            task = std::move(queue_.front());
            queue_.pop_front();
        }
        task->run();
    }
}

DecodeBudget &DecodeBudget::shared()
{
    // A quarter of the worker's 2 GiB of address space (sandbox/lockdown): decoders' output in
    // flight, beside the libraries, the listing and the reader's own buffers.
    // Never destroyed, as the pool: a task still running at exit may give its lease back.
    static DecodeBudget *budget = new DecodeBudget(uint64_t(512) << 20);
    return *budget;
}

std::optional<DecodeBudget::Lease> DecodeBudget::reserve(uint64_t bytes, bool first)
{
    std::lock_guard lock(mutex_);
    if (!first && held_ + bytes > capacity_)
        return std::nullopt;
    held_ += bytes;
    return Lease(this, bytes);
}

uint64_t DecodeBudget::held() const
{
    std::lock_guard lock(mutex_);
    return held_;
}

void DecodeBudget::release(uint64_t bytes)
{
    std::lock_guard lock(mutex_);
    held_ -= std::min(held_, bytes);
}

DecodeBudget::Lease::Lease(DecodeBudget *budget, uint64_t bytes)
    : budget_(budget),
      bytes_(bytes)
{
}

DecodeBudget::Lease::Lease(Lease &&other) noexcept
    : budget_(std::exchange(other.budget_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0))
{
}

DecodeBudget::Lease &DecodeBudget::Lease::operator=(Lease &&other) noexcept
{
    if (this != &other) {
        if (budget_)
            budget_->release(bytes_);
        budget_ = std::exchange(other.budget_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

DecodeBudget::Lease::~Lease()
{
    if (budget_)
        budget_->release(bytes_);
}

} // namespace asc
