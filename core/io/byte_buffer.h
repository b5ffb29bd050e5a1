// SPDX-License-Identifier: MIT
#pragma once
// A growable run of bytes that is never zeroed: room is added uninitialised for a read to fill,
// and what the read did not fill is dropped again. std::vector zeroes (or, with a no-op
// allocator, visits) every byte it adds: a megabyte per read of a small stream.

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>

namespace asc {

class ByteBuffer {
public:
    uint8_t *data() { return bytes_.get(); }
    const uint8_t *data() const { return bytes_.get(); }
    size_t size() const { return size_; }
    std::span<const uint8_t> view() const { return {bytes_.get(), size_}; }

    // Makes `more` bytes of room after the end, uninitialised; returns where they start. The
    // size includes them until shrink() gives back what was not filled.
    uint8_t *grow(size_t more)
    {
        if (size_ + more > capacity_) {
            const size_t capacity = std::max(size_ + more, capacity_ + capacity_ / 2);
            auto bigger = std::make_unique_for_overwrite<uint8_t[]>(capacity);
            if (size_)
                std::memcpy(bigger.get(), bytes_.get(), size_);
            bytes_ = std::move(bigger);
            capacity_ = capacity;
        }
        uint8_t *at = bytes_.get() + size_;
        size_ += more;
        return at;
    }
    void shrink(size_t size) { size_ = std::min(size, size_); }
    // Drops the first `count` bytes.
    void dropFront(size_t count)
    {
        count = std::min(count, size_);
        std::memmove(bytes_.get(), bytes_.get() + count, size_ - count);
        size_ -= count;
    }

private:
    std::unique_ptr<uint8_t[]> bytes_;
    size_t size_ = 0;
    size_t capacity_ = 0;
};

} // namespace asc
