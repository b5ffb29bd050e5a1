// SPDX-License-Identifier: MIT
#include "concat_source.h"

#include <algorithm>

namespace asc {

ConcatSource::ConcatSource(std::vector<SourcePtr> parts, QString name)
    : parts_(std::move(parts)),
      name_(std::move(name))
{
    for (const SourcePtr &part : parts_) {
        starts_.push_back(size_);
        size_ += part->size();
    }
}

std::pair<size_t, uint64_t> ConcatSource::locate(uint64_t offset) const
{
    const auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
    const size_t index = size_t(it - starts_.begin()) - 1;
    return {index, starts_[index]};
}

Result<size_t> ConcatSource::readAt(uint64_t offset, std::span<char> buf) const
{
    if (offset >= size_ || parts_.empty())
        return size_t(0);
    const size_t want = size_t(std::min<uint64_t>(buf.size(), size_ - offset));
    size_t done = 0;
    while (done < want) {
        auto [index, start] = locate(offset + done);
        // Empty parts share their start with the next: skip to the one that holds bytes.
        while (index + 1 < parts_.size() && parts_[index]->size() == 0)
            ++index;
        const uint64_t within = offset + done - start;
        const size_t n = size_t(std::min<uint64_t>(want - done, parts_[index]->size() - within));
        auto read = parts_[index]->readExact(within, buf.subspan(done, n));
        if (!read)
            return std::move(read).error();
        done += n;
    }
    return want;
}

std::optional<FileExtent> ConcatSource::fileExtent(uint64_t offset) const
{
    if (offset >= size_ || parts_.empty())
        return std::nullopt;
    const auto [index, start] = locate(offset);
    auto extent = parts_[index]->fileExtent(offset - start);
    if (extent)
        extent->length = std::min(extent->length, parts_[index]->size() - (offset - start));
    return extent;
}

} // namespace asc
