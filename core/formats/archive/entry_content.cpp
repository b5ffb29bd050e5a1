// SPDX-License-Identifier: MIT
#include "entry_content.h"

#include <algorithm>
#include <cstring>

namespace asc {

// Empty blocks in a row, with no input taken, before a decoder is taken to be stuck.
static constexpr int kMaxEmptyBlocks = 1 << 12;

void EntryContent::start(uint64_t size, bool sparse)
{
    *this = EntryContent();
    size_ = size;
    sparse_ = sparse;
}

void EntryContent::startEmpty()
{
    *this = EntryContent();
    done_ = true;
}

bool EntryContent::stuck(const Blocks &blocks)
{
    const uint64_t at = blocks.inputPosition();
    if (at != emptyBlocksAt_) {
        emptyBlocksAt_ = at;
        emptyBlocks_ = 0;
    }
    return ++emptyBlocks_ > kMaxEmptyBlocks;
}

Result<size_t> EntryContent::read(std::span<char> out, Blocks &blocks)
{
    size_t done = 0;
    while (done < out.size()) {
        if (size_ != kUnknown && pos_ >= size_)
            break;
        if (left_ == 0 && !done_) {
            auto block = blocks.nextBlock();
            if (!block)
                return std::move(block).error();
            if (block->end) {
                done_ = true;
            } else if (block->size == 0) {
                if (stuck(blocks))
                    return blocks.contentError(QStringLiteral("the decoder makes no progress"));
            } else {
                if (block->offset < 0 || uint64_t(block->offset) < pos_)
                    return blocks.contentError(QStringLiteral("data blocks out of order"));
                if (uint64_t(block->offset) > pos_ && !sparse_)
                    return blocks.contentError(QStringLiteral("the decoder skipped to byte %1, and the entry has no holes").arg(block->offset));
                data_ = block->data;
                left_ = block->size;
                dataOffset_ = uint64_t(block->offset);
            }
            continue;
        }
        size_t n = out.size() - done;
        if (left_ > 0 && pos_ >= dataOffset_) {
            n = std::min(n, left_);
            if (size_ != kUnknown) {
                if (pos_ + left_ > size_)
                    return blocks.contentError(QStringLiteral("more data than the %1 bytes its header gives").arg(size_));
                n = size_t(std::min<uint64_t>(n, size_ - pos_));
            }
            std::memcpy(out.data() + done, data_, n);
            data_ += n;
            left_ -= n;
            dataOffset_ += n;
        } else {
            // A hole of a sparse entry: before the next block, or after the last one up to the
            // recorded size.
            const uint64_t holeEnd = done_ || left_ == 0 ? size_ : dataOffset_;
            if (holeEnd == kUnknown)
                break; // nothing records a size: the content ends with the data
            if (!sparse_)
                return blocks.contentError(QStringLiteral("the data ends at byte %1 of the %2 its header gives").arg(pos_).arg(size_));
            n = size_t(std::min<uint64_t>(n, holeEnd - pos_));
            std::memset(out.data() + done, 0, n);
        }
        done += n;
        pos_ += n;
    }
    if (size_ != kUnknown && pos_ >= size_ && !done_) {
        if (auto ended = confirmEnd(blocks); !ended)
            return std::move(ended).error();
    }
    return done;
}

// The recorded size is reached: the decoder must agree that the entry ends here. The call that
// returns the end is where libarchive checks a zip's CRC and sizes, so it is made before the
// last bytes are handed out.
Result<void> EntryContent::confirmEnd(Blocks &blocks)
{
    if (left_ > 0)
        return blocks.contentError(QStringLiteral("more data than the %1 bytes its header gives").arg(size_));
    for (;;) {
        auto block = blocks.nextBlock();
        if (!block)
            return std::move(block).error();
        if (block->end)
            break;
        if (block->size > 0)
            return blocks.contentError(QStringLiteral("more data than the %1 bytes its header gives").arg(size_));
        if (stuck(blocks)) // a decoder still taking in input
            return blocks.contentError(QStringLiteral("the decoder makes no progress"));
    }
    done_ = true;
    return {};
}

} // namespace asc
