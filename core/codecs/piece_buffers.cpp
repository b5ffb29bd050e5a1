// SPDX-License-Identifier: MIT
#include "piece_buffers.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <sys/mman.h>

namespace asc {

void PieceBuffer::Unmap::operator()(uint8_t *p) const
{
    munmap(p, bytes);
}

void PieceBuffer::grow(size_t to, size_t keep)
{
    // Address space only: pages come as they are written and stay with the buffer for its next
    // use. (2 MiB pages fault less but stall in compaction: sys time varied 0.1-0.4 s.)
    void *p = mmap(nullptr, to, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        throw std::bad_alloc();
    std::unique_ptr<uint8_t[], Unmap> bigger(static_cast<uint8_t *>(p), Unmap{to});
    if (keep)
        std::memcpy(bigger.get(), data.get(), keep);
    data = std::move(bigger);
    capacity = to;
}

PieceBuffers::PieceBuffers(size_t keep, size_t roomy, size_t most)
    : keep_(keep),
      roomy_(roomy),
      most_(most)
{
}

PieceBuffer PieceBuffers::take(size_t capacity)
{
    PieceBuffer b;
    {
        // The smallest spare that is big enough, else the biggest (grown).
        std::lock_guard lock(mutex_);
        size_t best = spare_.size();
        for (size_t i = 0; i < spare_.size(); ++i) {
            const bool fits = spare_[i].capacity >= capacity;
            if (best == spare_.size() || (fits && (spare_[best].capacity < capacity || spare_[i].capacity < spare_[best].capacity)) ||
                (!fits && spare_[best].capacity < capacity && spare_[i].capacity > spare_[best].capacity))
                best = i;
        }
        if (best < spare_.size()) {
            b = std::move(spare_[best]);
            spare_.erase(spare_.begin() + std::ptrdiff_t(best));
        }
    }
    if (b.capacity < capacity)
        b.grow(std::min(most_, std::max(capacity, roomy_)), 0);
    b.size = 0;
    return b;
}

void PieceBuffers::give(PieceBuffer buffer)
{
    std::lock_guard lock(mutex_);
    if (spare_.size() < keep_)
        spare_.push_back(std::move(buffer));
}

std::vector<uint16_t> PieceBuffers::takeSymbols()
{
    std::lock_guard lock(mutex_);
    if (spareSymbols_.empty())
        return {};
    auto v = std::move(spareSymbols_.back());
    spareSymbols_.pop_back();
    return v;
}

void PieceBuffers::giveSymbols(std::vector<uint16_t> symbols)
{
    symbols.resize(symbols.capacity());
    std::lock_guard lock(mutex_);
    if (spareSymbols_.size() < keep_)
        spareSymbols_.push_back(std::move(symbols));
}

} // namespace asc
