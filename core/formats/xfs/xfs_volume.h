// SPDX-License-Identifier: MIT
#pragma once
// An XFS filesystem read from a byte source, our own reader (The Sleuth Kit 4.11 reads none).
// Names after the kernel's fs/xfs/libxfs/xfs_format.h and xfs_da_format.h: the superblock (v4 and
// v5), inodes v1-v3 (metadata CRCs checked on v5), extent lists and extent B-trees, directories in
// every form (short form, block, leaf, node, B-tree: their data blocks carry every name), local and
// remote symlinks, bigtime and large extent counts. A realtime file, an unknown incompatible
// feature or a volume flagged for repair is refused by name. Thread safe: every read goes to the
// source; the inode chunk cache is locked. Bounded: B-trees at most 9 deep, every block checked
// against its allocation group and the volume.

#include "formats/filesystem/block_run_source.h"
#include "io/byte_source.h"

#include <QHash>
#include <QStringList>
#include <memory>
#include <mutex>
#include <vector>

namespace asc::xfs {

struct Inode {
    uint64_t number = 0;
    uint16_t mode = 0; // type and permission bits, as stat's st_mode
    uint8_t format = 0; // 0 device, 1 local, 2 extents, 3 B-tree
    uint32_t uid = 0;
    uint32_t gid = 0;
    uint32_t links = 0;
    uint64_t size = 0;
    uint64_t extents = 0; // data fork extent count
    uint16_t flags = 0;
    uint64_t flags2 = 0;
    int64_t mtime = 0;
    uint32_t mtimeNsec = 0;
    uint32_t rdev = 0;
    QByteArray fork; // the data fork's bytes in the inode

    bool isDir() const { return (mode & 0xF000) == 0x4000; }
    bool isFile() const { return (mode & 0xF000) == 0x8000; }
    bool isSymlink() const { return (mode & 0xF000) == 0xA000; }
    bool isRealtime() const { return flags & 0x1; }
};

struct DirEntry {
    uint64_t inode = 0;
    QByteArray name;
};

class Volume {
public:
    static Result<std::shared_ptr<Volume>> open(SourcePtr source);

    const SourcePtr &source() const { return source_; }
    uint32_t blockSize() const { return blockSize_; }
    uint64_t blockCount() const { return blockCount_; }
    uint64_t rootInode() const { return rootInode_; }
    uint64_t realtimeBlocks() const { return realtimeBlocks_; }
    int version() const { return version_; }
    QByteArray label() const { return label_; }
    QString uuid() const { return uuid_; }
    QStringList features() const;

    Result<Inode> inode(uint64_t number) const;
    // The runs of a file's (or directory's) blocks, in logical order; holes are what no run covers.
    Result<std::vector<BlockRun>> runs(const Inode &inode, const QString &name) const;
    Result<std::vector<DirEntry>> directory(const Inode &dir) const;
    Result<QByteArray> symlinkTarget(const Inode &link) const;
    Result<SourcePtr> fileSource(const Inode &file, QString name) const;
    QString where(uint64_t inode) const;

private:
    explicit Volume(SourcePtr source);
    Result<void> readSuperblock();
    // A filesystem block number (AG number and block in it) as a block of the volume.
    std::optional<uint64_t> volumeBlock(uint64_t fsblock) const;
    Result<void> cachedRead(uint64_t offset, std::span<char> out) const;
    Result<void> collectBtree(uint64_t fsblock, int level, const QString &name, std::vector<BlockRun> &out, uint64_t &visited) const;
    Result<void> addExtents(const char *records, uint64_t count, const QString &name, std::vector<BlockRun> &out) const;
    Result<void> parseShortForm(const Inode &dir, std::vector<DirEntry> &out) const;
    Result<void> parseDataBlock(QByteArrayView block, uint64_t at, const QString &name, std::vector<DirEntry> &out) const;
    bool checksumOk(QByteArrayView bytes, size_t crcOffset) const;

    SourcePtr source_;
    uint32_t blockSize_ = 4096;
    uint64_t blockCount_ = 0;
    uint32_t agBlocks_ = 0;
    uint32_t agCount_ = 0;
    uint32_t inodeSize_ = 512;
    uint32_t dirBlockSize_ = 4096;
    uint8_t agBlockLog_ = 0;
    uint8_t inodesPerBlockLog_ = 0;
    uint64_t rootInode_ = 0;
    uint64_t realtimeBlocks_ = 0;
    int version_ = 5;
    bool ftype_ = false;
    bool bigExtentCounts_ = false;
    uint32_t versionBits_ = 0, features2_ = 0, compat_ = 0, roCompat_ = 0, incompat_ = 0;
    QByteArray label_;
    QString uuid_;
    mutable std::mutex cacheMutex_;
    mutable QHash<uint64_t, QByteArray> cache_; // 64 KiB chunks of the volume (inode clusters)
};

// The superblock's magic and version are there (the registry's probe).
bool looksLikeXfs(std::span<const char> head);

} // namespace asc::xfs
