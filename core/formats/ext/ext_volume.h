// SPDX-License-Identifier: MIT
#pragma once
// An ext2/3/4 filesystem read from a byte source, our own reader (The Sleuth Kit 4.11 returned
// zeros for ext4 inline data, nothing for revision-0 ext2, empty targets for long symlinks and
// refused deep extent trees). Names after the kernel's fs/ext4/ext4.h: superblock, group
// descriptors (32 or 64 bytes, meta_bg), inodes, extent trees and the ext2/3 block map, inline
// data (i_block and the system.data attribute), directories (linear; htree read as its leaves).
// Thread safe: every read goes to the source, the inode-table cache is locked. Bounded: extent
// trees at most 5 deep, block maps to the file's size, every block checked against the volume.

#include "formats/filesystem/block_run_source.h"
#include "io/byte_source.h"

#include <QHash>
#include <memory>
#include <mutex>
#include <vector>

namespace asc::ext {

struct Inode {
    uint32_t number = 0;
    uint16_t mode = 0; // type and permission bits, as stat's st_mode
    uint32_t uid = 0;
    uint32_t gid = 0;
    uint64_t size = 0;
    uint32_t flags = 0;
    uint16_t links = 0;
    int64_t mtime = 0;
    uint32_t mtimeNsec = 0;
    uint64_t blocks512 = 0; // i_blocks in 512-byte units
    uint64_t fileAcl = 0; // the block of its extended attributes, 0 if none
    QByteArray iblock; // the 60 bytes of i_block
    QByteArray inlineTail; // the system.data attribute of an inline-data inode

    bool isDir() const { return (mode & 0xF000) == 0x4000; }
    bool isFile() const { return (mode & 0xF000) == 0x8000; }
    bool isSymlink() const { return (mode & 0xF000) == 0xA000; }
    bool hasInlineData() const { return flags & 0x10000000; }
    bool usesExtents() const { return flags & 0x80000; }
    bool isEncrypted() const { return flags & 0x800; }
};

using Run = BlockRun;

struct DirEntry {
    uint32_t inode = 0;
    QByteArray name;
};

class Volume {
public:
    static Result<std::shared_ptr<Volume>> open(SourcePtr source);

    const SourcePtr &source() const { return source_; }
    uint32_t blockSize() const { return blockSize_; }
    uint64_t blockCount() const { return blockCount_; }
    uint32_t inodeCount() const { return inodeCount_; }
    QString kind() const; // ext2, ext3 or ext4, from the features
    QByteArray label() const { return label_; }
    QStringList features() const;
    uint32_t revision() const { return revision_; }

    Result<Inode> inode(uint32_t number) const;
    // The runs of a file's blocks, in logical order (holes are what no run covers).
    Result<std::vector<Run>> runs(const Inode &inode, const QString &name) const; // name: what errors name
    // All of an inode's content (directories, symlinks): at most `limit` bytes.
    Result<QByteArray> content(const Inode &inode, uint64_t limit) const;
    Result<std::vector<DirEntry>> directory(const Inode &dir) const;
    Result<QByteArray> symlinkTarget(const Inode &link) const;
    // A file's bytes as a source (holes and unwritten extents read as zeros).
    Result<SourcePtr> fileSource(const Inode &file, QString name) const;
    QString where(uint32_t inode) const;

private:
    explicit Volume(SourcePtr source);
    Result<void> readSuperblock();
    Result<uint64_t> inodeTableBlock(uint32_t group) const;
    uint64_t descriptorOffset(uint32_t group) const;
    bool groupHasSuperblock(uint32_t group) const;
    Result<void> cachedRead(uint64_t offset, std::span<char> out) const;
    Result<void> collectExtents(const QByteArray &node, std::optional<uint64_t> at, int depth, const QString &name, std::vector<Run> &out,
                                int &visited) const;
    Result<void> collectMapped(uint64_t block, int level, uint64_t &logical, uint64_t end, std::vector<Run> &out, const QString &name) const;
    Result<void> parseEntries(QByteArrayView area, uint64_t at, uint32_t dir, std::vector<DirEntry> &out) const;

    SourcePtr source_;
    uint32_t blockSize_ = 1024;
    uint32_t clusterSize_ = 1024;
    uint64_t blockCount_ = 0;
    uint32_t inodeCount_ = 0;
    uint32_t inodesPerGroup_ = 0;
    uint32_t blocksPerGroup_ = 0;
    uint32_t firstDataBlock_ = 0;
    uint32_t inodeSize_ = 128;
    uint32_t descSize_ = 32;
    uint32_t firstMetaBg_ = 0;
    uint32_t revision_ = 0;
    uint32_t compat_ = 0, incompat_ = 0, roCompat_ = 0;
    QByteArray label_;
    mutable std::mutex cacheMutex_;
    mutable QHash<uint64_t, QByteArray> cache_; // 64 KiB chunks of the volume (inode tables, descriptors)
};

// The superblock's magic is there (the registry's probe).
bool looksLikeExt(const ByteSource &source);

} // namespace asc::ext
