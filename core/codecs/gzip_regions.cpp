// SPDX-License-Identifier: MIT
#include "gzip_regions.h"

#include "deflate_blocks.h"

#include <algorithm>

namespace asc {

namespace {
constexpr size_t kStoredReach = 65535 + 4; // a stored block's LEN, NLEN and data
}

std::optional<uint64_t> GzipRegion::pieceStart() const
{
    std::call_once(looked_, [this] {
        if (auto bit = deflate::findBlock(before, bytes, 0, UINT64_MAX))
            start_ = offset * 8 + *bit;
    });
    return start_;
}

GzipRegions::GzipRegions(FilterInput &input, size_t regionBytes, size_t keepSpare)
    : input_(input),
      regionBytes_(regionBytes),
      keepSpare_(keepSpare)
{
}

Result<bool> GzipRegions::readOne()
{
    if (upstreamEnded_)
        return false;
    std::shared_ptr<GzipRegion> region(new GzipRegion, [spare = spare_, cap = keepSpare_](GzipRegion *r) {
        {
            std::lock_guard lock(spare->mutex);
            if (spare->buffers.size() < cap)
                spare->buffers.push_back(std::move(r->bytes));
        }
        delete r;
    });
    {
        std::lock_guard lock(spare_->mutex);
        if (!spare_->buffers.empty()) {
            region->bytes = std::move(spare_->buffers.back());
            spare_->buffers.pop_back();
        }
    }
    region->offset = input_.offset();
    region->bytes.resize(regionBytes_);
    auto got = input_.take(region->bytes);
    if (!got)
        return std::move(got).error();
    const size_t n = *got;
    if (n == 0) {
        upstreamEnded_ = true;
        return false;
    }
    region->bytes.resize(n);
    region->number = end();
    region->before = lastBytes_;
    const size_t keep = std::min(n, kStoredReach);
    lastBytes_.insert(lastBytes_.end(), region->bytes.end() - std::ptrdiff_t(keep), region->bytes.end());
    if (lastBytes_.size() > kStoredReach)
        lastBytes_.erase(lastBytes_.begin(), lastBytes_.end() - std::ptrdiff_t(kStoredReach));
    held_.push_back(std::move(region));
    return true;
}

Result<bool> GzipRegions::readThrough(uint64_t number)
{
    while (end() <= number) {
        auto more = readOne();
        if (!more || !*more)
            return more;
    }
    return true;
}

const GzipRegion *GzipRegions::holding(uint64_t byte) const
{
    for (const auto &r : held_)
        if (byte >= r->offset && byte < r->end())
            return r.get();
    return nullptr;
}

RegionPtr GzipRegions::number(uint64_t number) const
{
    if (number < first_ || number >= end())
        return nullptr;
    return held_[size_t(number - first_)];
}

uint64_t GzipRegions::numberAt(uint64_t byte) const
{
    const GzipRegion *r = holding(byte);
    return r ? r->number : end();
}

void GzipRegions::dropBehind(uint64_t byte, uint64_t margin)
{
    while (!held_.empty() && held_.front()->end() + margin <= byte) {
        held_.pop_front();
        ++first_;
    }
}

std::vector<uint8_t> GzipRegions::takeFrom(uint64_t byte)
{
    std::vector<uint8_t> after;
    for (const auto &r : held_) {
        if (r->end() <= byte)
            continue;
        const uint64_t from = std::max(byte, r->offset);
        after.insert(after.end(), r->bytes.begin() + std::ptrdiff_t(from - r->offset), r->bytes.end());
    }
    first_ += held_.size();
    held_.clear();
    return after;
}

} // namespace asc
