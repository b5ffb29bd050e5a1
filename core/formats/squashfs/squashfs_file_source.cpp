// SPDX-License-Identifier: MIT
// A squashfs file's bytes: its data blocks end to end from blocksStart (each compressed, stored or
// sparse), then its tail from a fragment block. One decoded block is kept for the next read.

#include "squashfs_volume.h"

#include <cstring>

namespace asc::squashfs {

namespace {

constexpr uint32_t kStored = 1u << 24;
constexpr uint32_t kNoFragment = 0xFFFFFFFF;

class FileSource final : public ByteSource {
public:
    FileSource(std::shared_ptr<const Volume> volume, Inode inode, QString name)
        : volume_(std::move(volume)),
          inode_(std::move(inode)),
          name_(std::move(name))
    {
        uint64_t at = inode_.blocksStart;
        for (uint32_t size : inode_.blockSizes) {
            starts_.push_back(at);
            at += size & (kStored - 1);
        }
    }
    uint64_t size() const override { return inode_.size; }
    QString name() const override { return name_; }

    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override
    {
        if (offset >= inode_.size)
            return size_t(0);
        const size_t want = size_t(std::min<uint64_t>(buf.size(), inode_.size - offset));
        const uint64_t blockSize = volume_->blockSize();
        size_t done = 0;
        while (done < want) {
            const uint64_t at = offset + done;
            const uint64_t index = at / blockSize;
            const uint64_t within = at % blockSize;
            const uint64_t blockBytes = std::min<uint64_t>(blockSize, inode_.size - index * blockSize);
            const size_t n = size_t(std::min<uint64_t>(want - done, blockBytes - within));
            auto block = decoded(index, uint32_t(blockBytes));
            if (!block)
                return std::move(block).error();
            if (!*block)
                std::memset(buf.data() + done, 0, n); // a sparse block
            else
                std::memcpy(buf.data() + done, (*block)->constData() + within, n);
            done += n;
        }
        return want;
    }

private:
    // Block `index` decoded (null for a sparse one); the tail comes from the fragment.
    Result<std::shared_ptr<const QByteArray>> decoded(uint64_t index, uint32_t expected) const
    {
        {
            std::lock_guard lock(mutex_);
            if (index == cachedIndex_)
                return cached_;
        }
        std::shared_ptr<const QByteArray> block;
        if (index < inode_.blockSizes.size()) {
            const uint32_t size = inode_.blockSizes[size_t(index)];
            if ((size & (kStored - 1)) != 0) {
                auto bytes = volume_->dataBlock(starts_[size_t(index)], size & (kStored - 1), size & kStored, expected);
                if (!bytes)
                    return named(std::move(bytes).error());
                block = std::make_shared<const QByteArray>(std::move(bytes).value());
            }
        } else {
            if (inode_.fragment == kNoFragment)
                return Error::make(ErrorKind::Damaged, name_, QStringLiteral("block %1 of the file is in neither its block list nor a fragment").arg(index));
            auto entry = volume_->fragmentEntry(inode_.fragment);
            if (!entry)
                return named(std::move(entry).error());
            auto bytes = volume_->dataBlock(entry->first, entry->second & (kStored - 1), entry->second & kStored, 0);
            if (!bytes)
                return named(std::move(bytes).error());
            if (uint64_t(inode_.fragmentOffset) + expected > uint64_t(bytes->size()))
                return Error::make(ErrorKind::Damaged, name_, QStringLiteral("the file's tail (%1 bytes at %2) runs past its fragment's %3").arg(expected).arg(inode_.fragmentOffset).arg(bytes->size()));
            block = std::make_shared<const QByteArray>(bytes->mid(inode_.fragmentOffset, expected));
        }
        std::lock_guard lock(mutex_);
        cachedIndex_ = index;
        cached_ = block;
        return block;
    }

    Error named(Error error) const
    {
        error.file = name_;
        if (error.kind == ErrorKind::Format)
            error.kind = ErrorKind::Damaged;
        return error;
    }

    std::shared_ptr<const Volume> volume_;
    Inode inode_;
    QString name_;
    std::vector<uint64_t> starts_;
    mutable std::mutex mutex_;
    mutable uint64_t cachedIndex_ = UINT64_MAX;
    mutable std::shared_ptr<const QByteArray> cached_;
};

} // namespace

Result<SourcePtr> Volume::fileSource(const Inode &file, QString name) const
{
    if (!file.isFile())
        return Error::make(ErrorKind::Usage, name, QStringLiteral("not a file"));
    return SourcePtr(std::make_shared<FileSource>(shared_from_this(), file, std::move(name)));
}

} // namespace asc::squashfs
