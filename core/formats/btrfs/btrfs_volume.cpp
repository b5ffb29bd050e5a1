// SPDX-License-Identifier: MIT
#include "btrfs_volume.h"

#include "btrfs_extents.h"

#include "formats/image/block_image.h"
#include "io/fuzzing.h"
#include "io/little_endian.h"

#include <QCryptographicHash>
#include <QHash>
#include <QUuid>
#include <algorithm>
#include <cstring>
#include <mutex>
#include <xxhash.h>

namespace asc::btrfs {

namespace {

constexpr uint64_t kSuperblockAt = 0x10000;
constexpr size_t kSuperblockSize = 4096;
constexpr size_t kHeaderSize = 101;
constexpr size_t kItemSize = 25;
constexpr size_t kKeyPtrSize = 33;
constexpr int kMaxLevel = 8;
constexpr uint64_t kChunkTree = 3;
constexpr uint64_t kRootTreeObjectid = 1;
constexpr uint64_t kMaxDirEntries = 20'000'000;

// Chunk type bits (BTRFS_BLOCK_GROUP_*).
constexpr uint64_t kRaid0 = 8, kRaid1 = 16, kDup = 32, kRaid10 = 64, kRaid5 = 128, kRaid6 = 256, kRaid1c3 = 512, kRaid1c4 = 1024;
// Incompatible features we read (BTRFS_FEATURE_INCOMPAT_*): mixed backrefs, default subvolume,
// mixed groups, lzo, zstd, big metadata, extended iref, raid56, skinny metadata, no holes,
// metadata uuid, raid1c34.
constexpr uint64_t kKnownIncompat = 0x1 | 0x2 | 0x4 | 0x8 | 0x10 | 0x20 | 0x40 | 0x80 | 0x100 | 0x200 | 0x400 | 0x800;

Key keyAt(const char *p)
{
    return {le64(p), uint8_t(p[8]), le64(p + 9)};
}

} // namespace

bool looksLikeBtrfs(const ByteSource &source)
{
    char magic[8];
    return source.size() > kSuperblockAt + kSuperblockSize && source.readExact(kSuperblockAt + 0x40, std::span(magic, 8)) && std::memcmp(magic, "_BHRfS_M", 8) == 0;
}

Volume::Volume(SourcePtr source)
    : source_(std::move(source))
{
}

Result<std::shared_ptr<Volume>> Volume::open(SourcePtr source)
{
    std::shared_ptr<Volume> volume(new Volume(std::move(source)));
    if (auto ok = volume->readSuperblock(); !ok)
        return std::move(ok).error();
    return volume;
}

QString Volume::checksumName() const
{
    switch (checksumType_) {
    case 0: return QStringLiteral("crc32c");
    case 1: return QStringLiteral("xxhash64");
    case 2: return QStringLiteral("sha256");
    case 3: return QStringLiteral("blake2b");
    default: return QStringLiteral("unknown");
    }
}

QStringList Volume::features() const
{
    static const char *names[] = {"mixed_backref", "default_subvol", "mixed_groups", "compress_lzo", "compress_zstd", "big_metadata",
                                  "extended_iref", "raid56", "skinny_metadata", "no_holes", "metadata_uuid", "raid1c34"};
    QStringList out;
    for (int bit = 0; bit < 12; ++bit)
        if (incompat_ & (uint64_t(1) << bit))
            out << QString::fromLatin1(names[bit]);
    return out;
}

bool Volume::checksumOk(const QByteArray &block, uint64_t length) const
{
    if (kChecksumsAlwaysPass)
        return true;
    const char *data = block.constData() + 32;
    const size_t size = size_t(length - 32);
    switch (checksumType_) {
    case 0: return crc32c(data, size) == le32(block.constData());
    case 1: return XXH64(data, size, 0) == le64(block.constData());
    case 2: return QCryptographicHash::hash(QByteArrayView(data, qsizetype(size)), QCryptographicHash::Sha256) == block.left(32);
    case 3: return QCryptographicHash::hash(QByteArrayView(data, qsizetype(size)), QCryptographicHash::Blake2b_256) == block.left(32);
    default: return false;
    }
}

Result<void> Volume::readSuperblock()
{
    const QString name = source_->name();
    QByteArray sb(qsizetype(kSuperblockSize), Qt::Uninitialized);
    if (auto read = source_->readExact(kSuperblockAt, std::span(sb.data(), kSuperblockSize)); !read)
        return read;
    const char *p = sb.constData();
    if (std::memcmp(p + 0x40, "_BHRfS_M", 8) != 0)
        return Error::format(name, kSuperblockAt + 0x40, QStringLiteral("no btrfs superblock magic"));
    checksumType_ = le16(p + 0xc4);
    if (checksumType_ > 3)
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("btrfs checksum type %1, which ArchiveScope does not know").arg(checksumType_), kSuperblockAt + 0xc4);
    if (!checksumOk(sb, kSuperblockSize))
        return Error::make(ErrorKind::Checksum, name, QStringLiteral("btrfs superblock fails its %1 checksum").arg(checksumName()), kSuperblockAt);
    fsid_ = sb.mid(0x20, 16);
    uuid_ = QUuid::fromRfc4122(fsid_).toString(QUuid::WithoutBraces);
    rootTree_ = le64(p + 0x50);
    const uint64_t chunkRoot = le64(p + 0x58);
    totalBytes_ = le64(p + 0x70);
    devices_ = le64(p + 0x88);
    sectorSize_ = le32(p + 0x90);
    nodeSize_ = le32(p + 0x94);
    const uint32_t sysChunkBytes = le32(p + 0xa0);
    incompat_ = le64(p + 0xbc);
    rootLevel_ = uint8_t(p[0xc6]);
    const int chunkRootLevel = uint8_t(p[0xc7]);
    deviceId_ = le64(p + 0xc9); // dev_item.devid
    label_ = sb.mid(0x12b, 256);
    label_.truncate(qsizetype(std::strlen(label_.constData())));
    if (sectorSize_ < 512 || sectorSize_ > 65536 || (sectorSize_ & (sectorSize_ - 1)))
        return Error::format(name, kSuperblockAt + 0x90, QStringLiteral("btrfs sector size %1").arg(sectorSize_));
    if (nodeSize_ < 4096 || nodeSize_ > 65536 || (nodeSize_ & (nodeSize_ - 1)))
        return Error::format(name, kSuperblockAt + 0x94, QStringLiteral("btrfs node size %1").arg(nodeSize_));
    if (const uint64_t unknown = incompat_ & ~kKnownIncompat)
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("btrfs incompatible feature 0x%1, which ArchiveScope does not read").arg(unknown, 0, 16), kSuperblockAt + 0xbc);
    if (rootLevel_ > kMaxLevel || chunkRootLevel > kMaxLevel)
        return Error::format(name, kSuperblockAt + 0xc6, QStringLiteral("btrfs tree levels %1 and %2").arg(rootLevel_).arg(chunkRootLevel));
    // The system chunks the superblock carries map the chunk tree itself.
    if (sysChunkBytes > 2048)
        return Error::format(name, kSuperblockAt + 0xa0, QStringLiteral("btrfs system chunk array of %1 bytes").arg(sysChunkBytes));
    size_t at = 0x32b;
    const size_t end = 0x32b + sysChunkBytes;
    while (at + 17 + 48 <= end) {
        const Key key = keyAt(p + at);
        at += 17;
        const uint16_t stripes = le16(p + at + 44);
        const size_t size = 48 + size_t(stripes) * 32;
        if (key.type != ChunkItem || at + size > end)
            return Error::format(name, kSuperblockAt + at, QStringLiteral("btrfs system chunk array is damaged"));
        if (auto ok = addChunk(key.offset, p + at, size, kSuperblockAt + at); !ok)
            return ok;
        at += size;
    }
    return readChunkTree(chunkRoot, chunkRootLevel);
}

Result<void> Volume::addChunk(uint64_t logical, const char *item, size_t size, uint64_t where)
{
    Chunk c;
    c.logical = logical;
    c.length = le64(item);
    c.stripeLength = le64(item + 16);
    c.type = le64(item + 24);
    const uint16_t stripes = le16(item + 44);
    c.subStripes = le16(item + 46);
    if (stripes == 0 || size < 48 + size_t(stripes) * 32 || c.length == 0 || c.stripeLength == 0)
        return Error::format(source_->name(), where, QStringLiteral("btrfs chunk at %1 is damaged").arg(logical));
    for (uint16_t i = 0; i < stripes; ++i)
        c.stripes.emplace_back(le64(item + 48 + i * 32), le64(item + 48 + i * 32 + 8));
    auto it = std::lower_bound(chunks_.begin(), chunks_.end(), logical, [](const Chunk &a, uint64_t l) { return a.logical < l; });
    if (it != chunks_.end() && it->logical == logical)
        *it = std::move(c);
    else
        chunks_.insert(it, std::move(c));
    if (chunks_.size() > 1'000'000)
        return Error::format(source_->name(), where, QStringLiteral("more than a million btrfs chunks"));
    return {};
}

Result<void> Volume::readChunkTree(uint64_t root, int level)
{
    std::vector<std::tuple<uint64_t, QByteArray, uint64_t>> found;
    auto ok = walk(root, level, Key{0, 0, 0}, Key{UINT64_MAX, 255, UINT64_MAX}, [&](const Key &key, QByteArrayView data) -> Result<bool> {
        if (key.type == ChunkItem)
            found.emplace_back(key.offset, data.toByteArray(), key.offset);
        return true;
    });
    if (!ok)
        return ok;
    for (const auto &[logical, data, where] : found)
        if (auto added = addChunk(logical, data.constData(), size_t(data.size()), where); !added)
            return added;
    return {};
}

Result<void> Volume::readLogical(uint64_t logical, std::span<char> out, int copy) const
{
    size_t done = 0;
    while (done < out.size()) {
        const uint64_t at = logical + done;
        auto it = std::upper_bound(chunks_.begin(), chunks_.end(), at, [](uint64_t l, const Chunk &c) { return l < c.logical; });
        if (it == chunks_.begin() || at >= std::prev(it)->logical + std::prev(it)->length)
            return Error::format(source_->name(), std::nullopt, QStringLiteral("btrfs logical address %1 is in no chunk").arg(at));
        const Chunk &c = *std::prev(it);
        const uint64_t off = at - c.logical;
        size_t n = size_t(std::min<uint64_t>(out.size() - done, c.length - off));
        std::optional<uint64_t> physical;
        const uint64_t profile = c.type & (kRaid0 | kRaid1 | kDup | kRaid10 | kRaid5 | kRaid6 | kRaid1c3 | kRaid1c4);
        if (profile & (kRaid5 | kRaid6))
            return Error::make(ErrorKind::Unsupported, source_->name(), QStringLiteral("a RAID5/6 btrfs chunk at %1, which ArchiveScope does not read").arg(c.logical));
        if (profile == kRaid0 || profile == kRaid10) {
            const uint64_t groups = profile == kRaid10 ? std::max<uint64_t>(1, c.stripes.size() / std::max<uint16_t>(1, c.subStripes)) : c.stripes.size();
            const uint64_t stripe = off / c.stripeLength;
            const uint64_t within = off % c.stripeLength;
            const uint64_t first = (stripe % groups) * (profile == kRaid10 ? std::max<uint16_t>(1, c.subStripes) : 1);
            const uint64_t copies = profile == kRaid10 ? std::max<uint16_t>(1, c.subStripes) : 1;
            n = size_t(std::min<uint64_t>(n, c.stripeLength - within));
            for (uint64_t k = first; k < first + copies && k < c.stripes.size() && !physical; ++k)
                if (c.stripes[size_t(k)].first == deviceId_)
                    physical = c.stripes[size_t(k)].second + (stripe / groups) * c.stripeLength + within;
        } else {
            // single, DUP, RAID1/1C3/1C4: every stripe is a whole copy; read the copy-th one on
            // this device.
            int seen = 0;
            for (const auto &[device, offset] : c.stripes)
                if (device == deviceId_ && !physical && seen++ == copy)
                    physical = offset + off;
            if (!physical && copy > 0)
                return Error::make(ErrorKind::NotFound, source_->name(), QStringLiteral("no copy %1 of btrfs address %2").arg(copy + 1).arg(at));
        }
        if (!physical)
            return Error::make(ErrorKind::NotFound, source_->name(),
                               QStringLiteral("btrfs data at %1 lies on another device of this %2-device filesystem").arg(at).arg(devices_));
        if (auto read = source_->readExact(*physical, out.subspan(done, n)); !read)
            return read;
        done += n;
    }
    return {};
}

Result<std::shared_ptr<const QByteArray>> Volume::node(uint64_t logical, int level) const
{
    {
        std::lock_guard lock(cacheMutex_);
        if (auto it = nodes_.find(logical); it != nodes_.end())
            return it.value();
    }
    auto block = std::make_shared<QByteArray>(qsizetype(nodeSize_), Qt::Uninitialized);
    // A copy that fails its checksum is passed over for the next (DUP and RAID1 keep two), as the
    // kernel does; when none passes, the node is an error.
    for (int copy = 0;; ++copy) {
        if (auto read = readLogical(logical, std::span(block->data(), nodeSize_), copy); !read) {
            if (copy == 0)
                return std::move(read).error();
            return Error::make(ErrorKind::Checksum, source_->name(), QStringLiteral("btrfs tree node at %1 fails its %2 checksum in every copy").arg(logical).arg(checksumName()));
        }
        if (checksumOk(*block, nodeSize_))
            break;
        if (copy >= 3)
            return Error::make(ErrorKind::Checksum, source_->name(), QStringLiteral("btrfs tree node at %1 fails its %2 checksum in every copy").arg(logical).arg(checksumName()));
    }
    const char *p = block->constData();
    if (le64(p + 48) != logical || uint8_t(p[100]) != level)
        return Error::format(source_->name(), std::nullopt, QStringLiteral("btrfs tree node at %1 says it is at %2, level %3 (expected level %4)").arg(logical).arg(le64(p + 48)).arg(uint8_t(p[100])).arg(level));
    std::lock_guard lock(cacheMutex_);
    if (nodes_.size() > 1024)
        nodes_.clear();
    nodes_.insert(logical, block);
    return std::shared_ptr<const QByteArray>(block);
}

Result<void> Volume::walk(uint64_t root, int level, const Key &min, const Key &max, const ItemVisitor &visit, int depth) const
{
    if (depth > kMaxLevel || level < 0 || level > kMaxLevel)
        return Error::format(source_->name(), std::nullopt, QStringLiteral("btrfs tree deeper than %1 levels").arg(kMaxLevel));
    auto got = node(root, level);
    if (!got)
        return std::move(got).error();
    const QByteArray &n = **got;
    const char *p = n.constData();
    const uint32_t items = le32(p + 96);
    if (level == 0) {
        if (kHeaderSize + uint64_t(items) * kItemSize > nodeSize_)
            return Error::format(source_->name(), std::nullopt, QStringLiteral("btrfs leaf at %1 claims %2 items").arg(root).arg(items));
        for (uint32_t i = 0; i < items; ++i) {
            const char *item = p + kHeaderSize + i * kItemSize;
            const Key key = keyAt(item);
            if (key < min)
                continue;
            if (max < key)
                return {};
            const uint32_t offset = le32(item + 17);
            const uint32_t size = le32(item + 21);
            if (kHeaderSize + uint64_t(offset) + size > nodeSize_)
                return Error::format(source_->name(), std::nullopt, QStringLiteral("btrfs leaf at %1: item %2 runs past the node").arg(root).arg(i));
            auto more = visit(key, QByteArrayView(p + kHeaderSize + offset, size));
            if (!more)
                return std::move(more).error();
            if (!*more)
                return Error::cancelled(); // the caller's stop: walk's callers treat it as done
        }
        return {};
    }
    if (kHeaderSize + uint64_t(items) * kKeyPtrSize > nodeSize_)
        return Error::format(source_->name(), std::nullopt, QStringLiteral("btrfs node at %1 claims %2 pointers").arg(root).arg(items));
    for (uint32_t i = 0; i < items; ++i) {
        const char *ptr = p + kHeaderSize + i * kKeyPtrSize;
        // Child i holds keys from its own key up to the next child's.
        if (i + 1 < items && keyAt(ptr + kKeyPtrSize) <= min)
            continue;
        if (max < keyAt(ptr))
            return {};
        if (auto ok = walk(le64(ptr + 17), level - 1, min, max, visit, depth + 1); !ok)
            return ok;
    }
    return {};
}

Result<std::pair<uint64_t, int>> Volume::treeRoot(uint64_t tree) const
{
    // Every inode and directory lookup asks: the root tree is walked once per subvolume.
    {
        std::lock_guard lock(cacheMutex_);
        if (auto it = roots_.find(tree); it != roots_.end())
            return it.value();
    }
    std::optional<std::pair<uint64_t, int>> found;
    auto ok = walk(rootTree_, rootLevel_, Key{tree, RootItem, 0}, Key{tree, RootItem, UINT64_MAX}, [&](const Key &, QByteArrayView data) -> Result<bool> {
        if (data.size() < 239)
            return Error::format(source_->name(), std::nullopt, QStringLiteral("btrfs root item of tree %1 is short").arg(tree));
        found = std::make_pair(le64(data.data() + 176), int(uint8_t(data[238])));
        return false;
    });
    if (!ok && ok.error().kind != ErrorKind::Cancelled)
        return std::move(ok).error();
    if (!found)
        return Error::make(ErrorKind::NotFound, source_->name(), QStringLiteral("btrfs has no tree %1").arg(tree));
    std::lock_guard lock(cacheMutex_);
    roots_.insert(tree, *found);
    return *found;
}

QString Volume::where(uint64_t tree, uint64_t inode) const
{
    return source_->name() + QStringLiteral(" (subvolume %1, inode %2)").arg(tree).arg(inode);
}

Result<Inode> Volume::inode(uint64_t tree, uint64_t number) const
{
    auto root = treeRoot(tree);
    if (!root)
        return std::move(root).error();
    std::optional<Inode> found;
    auto ok = walk(root->first, root->second, Key{number, InodeItem, 0}, Key{number, InodeItem, UINT64_MAX}, [&](const Key &, QByteArrayView data) -> Result<bool> {
        if (data.size() < 160)
            return Error::format(where(tree, number), std::nullopt, QStringLiteral("inode item of %1 bytes").arg(data.size()));
        const char *p = data.data();
        Inode n;
        n.tree = tree;
        n.number = number;
        n.size = le64(p + 16);
        n.links = le32(p + 40);
        n.uid = le32(p + 44);
        n.gid = le32(p + 48);
        n.mode = le32(p + 52);
        n.rdev = le64(p + 56);
        n.mtime = int64_t(le64(p + 136));
        n.mtimeNsec = le32(p + 144);
        found = n;
        return false;
    });
    if (!ok && ok.error().kind != ErrorKind::Cancelled)
        return std::move(ok).error();
    if (!found)
        return Error::format(where(tree, number), std::nullopt, QStringLiteral("no inode item"));
    return *found;
}

Result<std::vector<DirEntry>> Volume::directory(const Inode &dir) const
{
    auto root = treeRoot(dir.tree);
    if (!root)
        return std::move(root).error();
    std::vector<DirEntry> out;
    auto ok = walk(root->first, root->second, Key{dir.number, DirIndex, 0}, Key{dir.number, DirIndex, UINT64_MAX}, [&](const Key &, QByteArrayView data) -> Result<bool> {
        if (data.size() < 30)
            return Error::format(where(dir.tree, dir.number), std::nullopt, QStringLiteral("a directory item of %1 bytes").arg(data.size()));
        const char *p = data.data();
        const Key location = keyAt(p);
        const uint16_t nameLength = le16(p + 27);
        if (30 + qsizetype(nameLength) > data.size() || nameLength == 0)
            return Error::format(where(dir.tree, dir.number), std::nullopt, QStringLiteral("a directory item's name runs past it"));
        DirEntry e;
        e.name = QByteArray(p + 30, nameLength);
        if (location.type == RootItem) {
            e.subvolume = true;
            e.tree = location.objectid;
            e.inode = kRootDir;
        } else {
            e.tree = dir.tree;
            e.inode = location.objectid;
        }
        out.push_back(std::move(e));
        if (out.size() > kMaxDirEntries)
            return Error::make(ErrorKind::Limit, where(dir.tree, dir.number), QStringLiteral("more than %1 directory entries").arg(kMaxDirEntries));
        return true;
    });
    if (!ok)
        return std::move(ok).error();
    return out;
}

Result<SourcePtr> Volume::fileSource(const Inode &file, QString name) const
{
    auto root = treeRoot(file.tree);
    if (!root)
        return std::move(root).error();
    std::vector<FileExtent> extents;
    auto ok = walk(root->first, root->second, Key{file.number, ExtentData, 0}, Key{file.number, ExtentData, UINT64_MAX}, [&](const Key &key, QByteArrayView data) -> Result<bool> {
        auto extent = parseFileExtent(key.offset, data, name);
        if (!extent)
            return std::move(extent).error();
        extents.push_back(std::move(extent).value());
        if (extents.size() > 50'000'000)
            return Error::make(ErrorKind::Limit, name, QStringLiteral("more than 50 million extents"));
        return true;
    });
    if (!ok) {
        Error damaged = std::move(ok).error();
        if (damaged.kind == ErrorKind::Format)
            damaged.kind = ErrorKind::Damaged;
        return damaged;
    }
    return makeFileSource(shared_from_this(), std::move(extents), file.size, std::move(name));
}

Result<QByteArray> Volume::symlinkTarget(const Inode &link) const
{
    if (link.size > 4096)
        return Error::make(ErrorKind::Damaged, where(link.tree, link.number), QStringLiteral("a symlink of %1 bytes").arg(link.size));
    auto source = fileSource(link, where(link.tree, link.number));
    if (!source)
        return std::move(source).error();
    QByteArray target(qsizetype(link.size), Qt::Uninitialized);
    if (auto read = (*source)->readExact(0, std::span(target.data(), size_t(target.size()))); !read)
        return std::move(read).error();
    return target;
}

} // namespace asc::btrfs
