// SPDX-License-Identifier: MIT
#pragma once
// A btrfs filesystem on one device, our own reader (The Sleuth Kit 4.11 reads none). Names after the
// kernel's include/uapi/linux/btrfs_tree.h: the superblock and its system chunks, the chunk tree
// (logical to physical: single, DUP and RAID1 read one copy, RAID0 and RAID10 striped), B-tree
// nodes checked against their checksums (crc32c, xxhash64, sha256, blake2b), the root tree, and in
// each subvolume's tree the inodes, directory indexes and file extents (inline, regular, prealloc;
// zlib, lzo and zstd compressed). Thread safe; bounded (tree depth, items, extents).

#include "io/byte_source.h"

#include <QByteArray>
#include <QHash>
#include <QStringList>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace asc::btrfs {

struct Key {
    uint64_t objectid = 0;
    uint8_t type = 0;
    uint64_t offset = 0;
    auto operator<=>(const Key &) const = default;
};

enum ItemType : uint8_t {
    InodeItem = 1,
    DirIndex = 96,
    ExtentData = 108,
    RootItem = 132,
    RootRef = 156,
    ChunkItem = 228,
};

struct Inode {
    uint64_t tree = 0;
    uint64_t number = 0;
    uint64_t size = 0;
    uint32_t links = 0;
    uint32_t uid = 0;
    uint32_t gid = 0;
    uint32_t mode = 0;
    uint64_t rdev = 0;
    int64_t mtime = 0;
    uint32_t mtimeNsec = 0;
    bool isDir() const { return (mode & 0xF000) == 0x4000; }
};

struct DirEntry {
    QByteArray name;
    uint64_t tree = 0; // the tree the entry's inode is in (another subvolume's for a subvolume)
    uint64_t inode = 0;
    bool subvolume = false;
};

class Volume : public std::enable_shared_from_this<Volume> {
public:
    static Result<std::shared_ptr<Volume>> open(SourcePtr source);

    const SourcePtr &source() const { return source_; }
    QByteArray label() const { return label_; }
    QString uuid() const { return uuid_; }
    QString checksumName() const;
    uint32_t sectorSize() const { return sectorSize_; }
    uint32_t nodeSize() const { return nodeSize_; }
    uint64_t totalBytes() const { return totalBytes_; }
    uint64_t devices() const { return devices_; }
    QStringList features() const;
    static constexpr uint64_t kFsTree = 5;
    static constexpr uint64_t kRootDir = 256;

    Result<Inode> inode(uint64_t tree, uint64_t number) const;
    Result<std::vector<DirEntry>> directory(const Inode &dir) const;
    Result<QByteArray> symlinkTarget(const Inode &link) const;
    Result<SourcePtr> fileSource(const Inode &file, QString name) const;
    QString where(uint64_t tree, uint64_t inode) const;

    // Reads bytes at a logical address through the chunk map; `copy` picks among mirrored copies
    // (DUP, RAID1) on this device.
    Result<void> readLogical(uint64_t logical, std::span<char> out, int copy = 0) const;

private:
    explicit Volume(SourcePtr source);
    Result<void> readSuperblock();
    Result<void> readChunkTree(uint64_t root, int level);
    Result<void> addChunk(uint64_t logical, const char *item, size_t size, uint64_t where);
    // Calls `visit` for every item of the tree at `root` with a key in [min, max], in key order;
    // `visit` returns false to stop.
    using ItemVisitor = std::function<Result<bool>(const Key &, QByteArrayView)>;
    Result<void> walk(uint64_t root, int level, const Key &min, const Key &max, const ItemVisitor &visit, int depth = 0) const;
    Result<std::shared_ptr<const QByteArray>> node(uint64_t logical, int level) const;
    Result<std::pair<uint64_t, int>> treeRoot(uint64_t tree) const;
    bool checksumOk(const QByteArray &block, uint64_t length) const;

    struct Chunk {
        uint64_t logical = 0;
        uint64_t length = 0;
        uint64_t stripeLength = 0;
        uint64_t type = 0;
        uint16_t subStripes = 0;
        std::vector<std::pair<uint64_t, uint64_t>> stripes; // (device id, physical offset)
    };
    SourcePtr source_;
    QByteArray label_;
    QString uuid_;
    QByteArray fsid_;
    uint64_t deviceId_ = 0;
    uint64_t devices_ = 1;
    uint64_t totalBytes_ = 0;
    uint64_t rootTree_ = 0;
    int rootLevel_ = 0;
    uint32_t sectorSize_ = 4096;
    uint32_t nodeSize_ = 16384;
    uint16_t checksumType_ = 0;
    uint64_t incompat_ = 0;
    std::vector<Chunk> chunks_; // sorted by logical address
    mutable std::mutex cacheMutex_;
    mutable QHash<uint64_t, std::shared_ptr<const QByteArray>> nodes_; // tree nodes by logical address
    mutable QHash<uint64_t, std::pair<uint64_t, int>> roots_; // a subvolume's tree: its root node and level
};

bool looksLikeBtrfs(const ByteSource &source);

} // namespace asc::btrfs
