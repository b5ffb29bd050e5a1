// SPDX-License-Identifier: MIT
#pragma once
// A squashfs 4.0 image read from a byte source, our own reader (Ubuntu's live filesystem, snaps,
// AppImages). Names after squashfs-tools' squashfs_fs.h: the superblock, metadata blocks (inodes,
// directories, the fragment and id tables), data blocks and fragments, compressed with gzip, lzma,
// xz, lzo, lz4 or zstd through our codecs' libraries; sparse blocks read as zeros. Thread safe:
// decoded metadata blocks are cached under a lock. Bounded: every table and size is checked against
// the image.

#include "io/byte_source.h"

#include <QByteArray>
#include <QHash>
#include <QStringList>
#include <memory>
#include <mutex>
#include <vector>

namespace asc::squashfs {

struct Inode {
    uint64_t ref = 0; // where it is: metadata block << 16 | offset
    uint16_t type = 0; // 1..14, basic and extended
    uint16_t mode = 0; // permission bits
    uint32_t uid = 0;
    uint32_t gid = 0;
    uint32_t mtime = 0;
    uint32_t links = 1;
    uint64_t size = 0; // file size, or a directory's listing size
    // files
    uint64_t blocksStart = 0;
    uint32_t fragment = 0xFFFFFFFF;
    uint32_t fragmentOffset = 0;
    std::vector<uint32_t> blockSizes;
    // directories
    uint32_t dirBlock = 0;
    uint32_t dirOffset = 0;
    // symlinks and devices
    QByteArray target;
    uint32_t device = 0;

    bool isDir() const { return type == 1 || type == 8; }
    bool isFile() const { return type == 2 || type == 9; }
    bool isSymlink() const { return type == 3 || type == 10; }
};

struct DirEntry {
    QByteArray name;
    uint64_t ref = 0;
};

class Volume : public std::enable_shared_from_this<Volume> {
public:
    static Result<std::shared_ptr<Volume>> open(SourcePtr source);

    const SourcePtr &source() const { return source_; }
    uint64_t rootRef() const { return rootRef_; }
    uint32_t blockSize() const { return blockSize_; }
    uint32_t inodeCount() const { return inodeCount_; }
    QString compressionName() const;
    uint64_t bytesUsed() const { return bytesUsed_; }

    Result<Inode> inode(uint64_t ref) const;
    Result<std::vector<DirEntry>> directory(const Inode &dir) const;
    Result<SourcePtr> fileSource(const Inode &file, QString name) const;
    // One data block (or fragment block) decoded: `stored` bytes at `at`, compressed unless `raw`.
    Result<QByteArray> dataBlock(uint64_t at, uint32_t stored, bool raw, uint32_t expected) const;
    Result<std::pair<uint64_t, uint32_t>> fragmentEntry(uint32_t index) const; // (start, size field)
    QString where(uint64_t ref) const;

private:
    explicit Volume(SourcePtr source);
    Result<void> readSuperblock();
    // `length` bytes of a metadata table from (block, offset), following on into the next blocks.
    Result<QByteArray> metadata(uint64_t tableStart, uint64_t block, uint32_t offset, uint64_t length, uint64_t *endBlock = nullptr,
                                uint32_t *endOffset = nullptr) const;
    Result<std::shared_ptr<const QByteArray>> metadataBlock(uint64_t at, uint64_t *next) const;
    Result<QByteArray> decompress(QByteArrayView input, uint32_t limit) const;
    Result<void> readIds();
    Result<uint32_t> id(uint16_t index) const;

    SourcePtr source_;
    uint32_t inodeCount_ = 0;
    uint32_t blockSize_ = 131072;
    uint32_t fragmentCount_ = 0;
    uint16_t compression_ = 1;
    uint16_t idCount_ = 0;
    uint64_t rootRef_ = 0;
    uint64_t bytesUsed_ = 0;
    uint64_t idTable_ = 0, inodeTable_ = 0, directoryTable_ = 0, fragmentTable_ = 0;
    std::vector<uint32_t> ids_; // the uid/gid table
    mutable std::mutex cacheMutex_;
    mutable QHash<uint64_t, std::pair<std::shared_ptr<const QByteArray>, uint64_t>> cache_; // position -> (block, next)
};

// Where a squashfs image starts in `head` (0, or past an AppImage's ELF runtime); nullopt if none.
std::optional<uint64_t> squashfsOffset(const ByteSource &source, std::span<const char> head);

} // namespace asc::squashfs
