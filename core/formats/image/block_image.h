// SPDX-License-Identifier: MIT
#pragma once
// The common shape of block-map disk images (VMDK, VDI, VHD, VHDX): a virtual disk cut into
// blocks, each unallocated/zero, stored plainly at a host offset, or compressed. Subclasses map a
// block; this class reads, maps and describes runs of blocks. Thread safe; blocks on the file.

#include "disk_image.h"

#include <mutex>

namespace asc {

class BlockImage : public DiskImage {
public:
    uint64_t size() const override { return size_; }
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override;
    QString name() const override { return file_->name(); }
    std::optional<FileExtent> fileExtent(uint64_t offset) const override;
    uint64_t zeroRun(uint64_t offset) const override;
    Result<std::vector<DiskExtent>> map(uint64_t start, uint64_t length) const override;

protected:
    struct Block {
        enum Kind { Zero,
                    Data,
                    Compressed } kind = Zero;
        uint64_t host = 0; // Data: file offset of the block's first byte; Compressed: where its record is
        bool allocated = false; // false: the image says nothing (reads as zeros)
    };
    BlockImage(SourcePtr file, uint64_t size, uint64_t blockSize)
        : file_(std::move(file)),
          size_(size),
          blockSize_(blockSize) {}
    virtual Result<Block> block(uint64_t index) const = 0;
    // Formats that cannot have a backing file (VDI, VHD, VHDX) own every byte: their holes are
    // present zeros in `map`, as qemu-img map reports them. VMDK holes may defer to a parent.
    virtual bool holesArePresent() const { return false; }
    // Decompresses a compressed block (VMDK streamOptimized grains).
    virtual Result<QByteArray> decompress(uint64_t index, const Block &block) const;

    SourcePtr file_;
    uint64_t size_;
    uint64_t blockSize_;

private:
    mutable std::mutex cacheMutex_;
    mutable uint64_t cachedIndex_ = UINT64_MAX;
    mutable std::shared_ptr<const QByteArray> cached_;
};

// CRC-32C (Castagnoli), as VHDX headers use.
uint32_t crc32c(const char *data, size_t size);

} // namespace asc
