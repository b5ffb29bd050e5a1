// SPDX-License-Identifier: MIT
#include "readahead.h"

#include "io/cancel.h"

namespace asc {

Readahead::Readahead(StreamPtr stream, bool threaded, size_t blockSize, int blocks)
    : stream_(std::move(stream)),
      threaded_(threaded),
      storage_(size_t(threaded ? std::max(2, blocks) : 1)),
      blockSize_(blockSize)
{
    storage_.front().bytes.resize(blockSize); // the others when the thread starts
}

Readahead::~Readahead()
{
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable())
        thread_.join();
}

uint64_t Readahead::consumed() const
{
    return thread_.joinable() ? consumed_.load(std::memory_order_relaxed) : stream_->consumed();
}

Result<std::span<const char>> Readahead::readHere()
{
    Block &b = storage_.front();
    size_t size = 0;
    while (size < b.bytes.size()) {
        auto got = stream_->read(std::span(b.bytes.data() + size, b.bytes.size() - size));
        if (!got)
            return std::move(got).error();
        if (*got == 0)
            break;
        size += *got;
    }
    if (size < b.bytes.size())
        producerDone_ = true; // nothing more to read: no thread to start
    return std::span<const char>(b.bytes.data(), size);
}

void Readahead::produce()
{
    // A read of the file stops as soon as the reader is destroyed (the parser gave up, Stop).
    CancelScope scope([this] {
        std::lock_guard lock(mutex_);
        return stop_;
    });
    for (;;) {
        Block *block = nullptr;
        {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [this] { return stop_ || !free_.empty(); });
            if (stop_)
                return;
            block = free_.front();
            free_.pop_front();
        }
        // Fill the whole block: libarchive does best with large ones.
        size_t size = 0;
        std::optional<Error> error;
        while (size < block->bytes.size()) {
            auto got = stream_->read(std::span(block->bytes.data() + size, block->bytes.size() - size));
            if (!got) {
                error = std::move(got).error();
                break;
            }
            if (*got == 0)
                break;
            size += *got;
        }
        consumed_.store(stream_->consumed(), std::memory_order_relaxed);
        const bool last = error || size < block->bytes.size();
        {
            std::lock_guard lock(mutex_);
            block->size = size;
            block->error = std::move(error);
            filled_.push_back(block);
            if (last)
                producerDone_ = true;
        }
        changed_.notify_all();
        if (last)
            return;
    }
}

Result<std::span<const char>> Readahead::next()
{
    // Stop is asked of the caller's thread (its CancelScope); the producer then stops at its
    // next read of the file, so at most the blocks in flight are read after a Stop.
    if (stopRequested()) {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        changed_.notify_all();
        return Error::cancelled();
    }
    if (!thread_.joinable()) {
        if (!threaded_ || blocksRead_ < kBlocksBeforeThread) {
            ++blocksRead_;
            return readHere();
        }
        if (producerDone_)
            return std::span<const char>(); // the stream ended before the thread was needed
        for (Block &b : storage_) {
            b.bytes.resize(blockSize_);
            free_.push_back(&b);
        }
        thread_ = std::thread([this] { produce(); });
    }
    std::unique_lock lock(mutex_);
    if (lent_) {
        free_.push_back(lent_);
        lent_ = nullptr;
        changed_.notify_all();
    }
    // The one cancellable wait (io/cancel.h): a Stop on this thread is seen while the producer
    // works on a big block, and then reaches the producer.
    if (auto waited = waitUnlessStopped(changed_, lock, [this] { return !filled_.empty() || producerDone_; }); !waited) {
        stop_ = true;
        lock.unlock();
        changed_.notify_all();
        return std::move(waited).error();
    }
    if (filled_.empty())
        return std::span<const char>(); // the producer is done and everything was handed out
    Block *block = filled_.front();
    filled_.pop_front();
    if (block->error) {
        Error e = *block->error;
        free_.push_back(block);
        return e;
    }
    lent_ = block;
    return std::span<const char>(block->bytes.data(), block->size);
}

} // namespace asc
