// SPDX-License-Identifier: MIT
#pragma once
// A cancel flag shared between a requester (UI, signal handler) and a worker that checks it per
// I/O chunk. Thread safe, lock free.

#include <atomic>
#include <memory>

namespace asc {

class CancelFlag {
public:
    void cancel() { cancelled_->store(true, std::memory_order_relaxed); }
    bool isCancelled() const { return cancelled_->load(std::memory_order_relaxed); }

private:
    std::shared_ptr<std::atomic<bool>> cancelled_ = std::make_shared<std::atomic<bool>>(false);
};

} // namespace asc
