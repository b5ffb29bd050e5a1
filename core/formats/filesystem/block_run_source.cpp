// SPDX-License-Identifier: MIT
#include "block_run_source.h"

#include <algorithm>
#include <cstring>

namespace asc {

BlockRunSource::BlockRunSource(SourcePtr volume, std::vector<BlockRun> runs, uint32_t blockSize, uint64_t size, QString name)
    : volume_(std::move(volume)),
      runs_(std::move(runs)),
      blockSize_(blockSize),
      size_(size),
      name_(std::move(name))
{
}

Result<size_t> BlockRunSource::readAt(uint64_t offset, std::span<char> buf) const
{
    if (offset >= size_)
        return size_t(0);
    const size_t want = size_t(std::min<uint64_t>(buf.size(), size_ - offset));
    size_t done = 0;
    while (done < want) {
        const uint64_t at = offset + done;
        const uint64_t block = at / blockSize_;
        auto it = std::upper_bound(runs_.begin(), runs_.end(), block, [](uint64_t b, const BlockRun &r) { return b < r.logical; });
        const BlockRun *run = it == runs_.begin() ? nullptr : &*(it - 1);
        size_t n;
        if (run && block < run->logical + run->count) {
            const uint64_t runEnd = (run->logical + run->count) * blockSize_;
            n = size_t(std::min<uint64_t>(want - done, runEnd - at));
            if (run->zeros) {
                std::memset(buf.data() + done, 0, n);
            } else {
                const uint64_t physical = run->physical * blockSize_ + (at - run->logical * blockSize_);
                auto got = volume_->readAt(physical, buf.subspan(done, n));
                if (!got)
                    return std::move(got).error();
                if (*got != n)
                    return Error::format(name_, at, QStringLiteral("the volume ends inside the file's block %1").arg(block));
            }
        } else {
            const uint64_t nextStart = it == runs_.end() ? size_ : std::min<uint64_t>(size_, it->logical * blockSize_);
            n = size_t(std::min<uint64_t>(want - done, nextStart - at));
            std::memset(buf.data() + done, 0, n); // a hole the file declares
        }
        done += n;
    }
    return done;
}

uint64_t BlockRunSource::zeroRun(uint64_t offset) const
{
    const uint64_t block = offset / blockSize_;
    auto it = std::upper_bound(runs_.begin(), runs_.end(), block, [](uint64_t b, const BlockRun &r) { return b < r.logical; });
    if (it != runs_.begin() && block < (it - 1)->logical + (it - 1)->count)
        return (it - 1)->zeros ? ((it - 1)->logical + (it - 1)->count) * blockSize_ - offset : 0;
    const uint64_t next = it == runs_.end() ? size_ : std::min<uint64_t>(size_, it->logical * blockSize_);
    return next > offset ? next - offset : 0;
}

} // namespace asc
