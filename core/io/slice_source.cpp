// SPDX-License-Identifier: MIT
#include "slice_source.h"

#include <algorithm>

namespace asc {

SliceSource::SliceSource(SourcePtr parent, uint64_t start, uint64_t length, QString name)
    : parent_(std::move(parent)),
      name_(std::move(name))
{
    const uint64_t parentSize = parent_->size();
    start_ = std::min(start, parentSize);
    length_ = std::min(length, parentSize - start_);
}

Result<size_t> SliceSource::readAt(uint64_t offset, std::span<char> buf) const
{
    if (offset >= length_)
        return size_t(0);
    const size_t n = size_t(std::min<uint64_t>(buf.size(), length_ - offset));
    return parent_->readAt(start_ + offset, buf.first(n));
}

std::optional<FileExtent> SliceSource::fileExtent(uint64_t offset) const
{
    if (offset >= length_)
        return std::nullopt;
    auto extent = parent_->fileExtent(start_ + offset);
    if (extent)
        extent->length = std::min(extent->length, length_ - offset);
    return extent;
}

uint64_t SliceSource::zeroRun(uint64_t offset) const
{
    if (offset >= length_)
        return 0;
    return std::min(parent_->zeroRun(start_ + offset), length_ - offset);
}

} // namespace asc
