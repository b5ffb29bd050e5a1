// SPDX-License-Identifier: MIT
#include "thread_pool_reader.h"

#include "io/tsan_handoff.h"

namespace asc {

ThreadPoolReader::ThreadPoolReader(SourcePtr source, const AsyncOptions &options)
    : AsyncReader(std::move(source), options)
{
    pool_.setMaxThreadCount(std::max(1, options.queueDepth));
    pool_.setExpiryTimeout(-1); // keep threads: a benchmark must not pay thread start-up per read
}

ThreadPoolReader::~ThreadPoolReader()
{
    pool_.waitForDone();
}

void ThreadPoolReader::start(int index)
{
    Slot &s = slot(index);
    const uint64_t offset = s.offset;
    const std::span<char> target = s.buf.first(s.want);
    // The key is not a capture: reading a capture to find it would itself be the unordered read.
    static const char handOffKey = 0;
    std::function<void()> task = [this, index, offset, target] {
        takeOver(&handOffKey);
        Result<size_t> got = source_->readAt(offset, target);
        std::lock_guard lock(mutex_);
        completed_.push_back({index, std::move(got)});
        finished_.notify_one();
    };
    handOff(&handOffKey); // after the task is made: its captures are part of what is handed over
    pool_.start(std::move(task));
}

std::optional<AsyncReader::Completion> ThreadPoolReader::next(bool wait)
{
    std::unique_lock lock(mutex_);
    if (wait)
        finished_.wait(lock, [this] { return !completed_.empty(); });
    if (completed_.empty())
        return std::nullopt;
    Completion c = std::move(completed_.front());
    completed_.pop_front();
    return c;
}

} // namespace asc
