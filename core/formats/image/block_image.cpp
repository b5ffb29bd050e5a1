// SPDX-License-Identifier: MIT
#include "io/trace.h"
#include "block_image.h"

#include <array>
#include <cstring>

namespace asc {

Result<QByteArray> BlockImage::decompress(uint64_t, const Block &block) const
{
    return Error::format(name(), block.host, QStringLiteral("compressed blocks are not supported in this format"));
}

Result<size_t> BlockImage::readAt(uint64_t offset, std::span<char> buf) const
{
    if (offset >= size_)
        return size_t(0);
    const size_t want = size_t(std::min<uint64_t>(buf.size(), size_ - offset));
    size_t done = 0;
    while (done < want) {
        const uint64_t at = offset + done;
        const uint64_t index = at / blockSize_;
        const uint64_t inBlock = at % blockSize_;
        const size_t n = size_t(std::min<uint64_t>(blockSize_ - inBlock, want - done));
        auto b = block(index);
        if (!b)
            return std::move(b).error();
        char *out = buf.data() + done;
        switch (b->kind) {
        case Block::Zero:
            std::memset(out, 0, n);
            break;
        case Block::Data: {
            const TraceLayer layer("image data block");
            auto got = file_->readAt(b->host + inBlock, std::span(out, n));
            if (!got)
                return std::move(got).error();
            if (*got != n)
                return Error::format(name(), b->host + inBlock, QStringLiteral("block %1 lies beyond the end of the file").arg(index));
            break;
        }
        case Block::Compressed: {
            std::shared_ptr<const QByteArray> bytes;
            {
                std::lock_guard lock(cacheMutex_);
                if (cachedIndex_ == index)
                    bytes = cached_;
            }
            if (!bytes) {
                auto inflated = decompress(index, *b);
                if (!inflated)
                    return std::move(inflated).error();
                bytes = std::make_shared<const QByteArray>(std::move(inflated).value());
                std::lock_guard lock(cacheMutex_);
                cachedIndex_ = index;
                cached_ = bytes;
            }
            const size_t available = inBlock < uint64_t(bytes->size()) ? size_t(std::min<uint64_t>(n, uint64_t(bytes->size()) - inBlock)) : 0;
            std::memcpy(out, bytes->constData() + inBlock, available);
            std::memset(out + available, 0, n - available);
            break;
        }
        }
        done += n;
    }
    return done;
}

std::optional<FileExtent> BlockImage::fileExtent(uint64_t offset) const
{
    if (offset >= size_)
        return std::nullopt;
    auto b = block(offset / blockSize_);
    if (!b || b->kind != Block::Data)
        return std::nullopt;
    const uint64_t inBlock = offset % blockSize_;
    auto extent = file_->fileExtent(b->host + inBlock);
    if (extent)
        extent->length = std::min({extent->length, blockSize_ - inBlock, size_ - offset});
    return extent;
}

uint64_t BlockImage::zeroRun(uint64_t offset) const
{
    uint64_t run = 0;
    for (uint64_t at = offset; at < size_ && run < (1ULL << 32);) {
        auto b = block(at / blockSize_);
        if (!b || b->kind != Block::Zero)
            break;
        const uint64_t step = std::min(blockSize_ - at % blockSize_, size_ - at);
        run += step;
        at += step;
    }
    return run;
}

Result<std::vector<DiskExtent>> BlockImage::map(uint64_t start, uint64_t length) const
{
    std::vector<DiskExtent> extents;
    const uint64_t end = std::min(size_, start + length);
    for (uint64_t at = start; at < end;) {
        auto b = block(at / blockSize_);
        if (!b)
            return std::move(b).error();
        const uint64_t n = std::min(blockSize_ - at % blockSize_, end - at);
        DiskExtent e;
        e.start = at;
        e.length = n;
        e.present = b->allocated || holesArePresent();
        e.zero = b->kind == Block::Zero;
        e.data = b->kind != Block::Zero;
        e.compressed = b->kind == Block::Compressed;
        if (b->kind == Block::Data)
            e.offset = b->host + at % blockSize_;
        appendExtent(extents, e);
        at += n;
    }
    return extents;
}

uint32_t crc32c(const char *data, size_t size)
{
    static const auto table = [] {
        std::array<uint32_t, 256> t{};
        for (uint32_t i = 0; i < 256; ++i) {
            uint32_t c = i;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0x82F63B78u ^ (c >> 1) : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < size; ++i)
        crc = table[(crc ^ uint8_t(data[i])) & 0xFF] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

} // namespace asc
