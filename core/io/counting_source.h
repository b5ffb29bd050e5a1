// SPDX-License-Identifier: MIT
#pragma once
// Wraps a source and counts the reads and bytes that reach it (tests, "read only a fraction" checks).

#include "byte_source.h"

#include <atomic>

namespace asc {

class CountingSource final : public ByteSource {
public:
    explicit CountingSource(SourcePtr inner)
        : inner_(std::move(inner)) {}

    uint64_t size() const override { return inner_->size(); }
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override
    {
        reads_.fetch_add(1, std::memory_order_relaxed);
        auto got = inner_->readAt(offset, buf);
        if (got)
            bytes_.fetch_add(*got, std::memory_order_relaxed);
        return got;
    }
    QString name() const override { return inner_->name(); }

    uint64_t reads() const { return reads_.load(); }
    uint64_t bytes() const { return bytes_.load(); }

private:
    SourcePtr inner_;
    mutable std::atomic<uint64_t> reads_{0};
    mutable std::atomic<uint64_t> bytes_{0};
};

} // namespace asc
