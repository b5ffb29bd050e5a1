// SPDX-License-Identifier: MIT
#include "xfs_volume.h"

#include "formats/image/block_image.h"
#include "io/big_endian.h"
#include "io/byte_text.h"
#include "io/fuzzing.h"
#include "io/little_endian.h"

#include <QUuid>
#include <algorithm>
#include <cstring>

namespace asc::xfs {

namespace {

constexpr uint32_t kInodeMagic = 0x494e; // "IN"
constexpr uint32_t kBmapMagic = 0x424d4150; // "BMAP", v4 extent B-tree block
constexpr uint32_t kBmap3Magic = 0x424d4133; // "BMA3", v5
constexpr uint32_t kDirBlockMagic = 0x58443242; // "XD2B": a single-block directory
constexpr uint32_t kDirDataMagic = 0x58443244; // "XD2D": a data block of a bigger one
constexpr uint32_t kDir3BlockMagic = 0x58444233; // "XDB3"
constexpr uint32_t kDir3DataMagic = 0x58444433; // "XDD3"
constexpr uint32_t kSymlinkMagic = 0x58534c4d; // "XSLM"
constexpr uint64_t kDirLeafOffset = 1ull << 35; // directory data lives below 32 GiB of its address space
constexpr int kMaxBtreeLevels = 9;
constexpr uint64_t kMaxDirEntries = 20'000'000;
constexpr uint32_t kMaxSymlink = 1024;
constexpr uint64_t kCacheChunk = 64 * 1024;
constexpr int kCacheChunks = 256;

// Incompatible features this reader understands (xfs_format.h XFS_SB_FEAT_INCOMPAT_*).
constexpr uint32_t kIncompatFtype = 0x1, kIncompatSpinodes = 0x2, kIncompatMetaUuid = 0x4, kIncompatBigtime = 0x8,
                   kIncompatNeedsRepair = 0x10, kIncompatNrext64 = 0x20;
constexpr uint32_t kKnownIncompat = kIncompatFtype | kIncompatSpinodes | kIncompatMetaUuid | kIncompatBigtime | kIncompatNrext64;

uint32_t log2Exact(uint64_t v)
{
    uint32_t log = 0;
    while ((uint64_t(1) << log) < v)
        ++log;
    return log;
}

} // namespace

bool looksLikeXfs(std::span<const char> head)
{
    if (head.size() < 512 || std::memcmp(head.data(), "XFSB", 4) != 0)
        return false;
    const uint32_t version = be16(head.data() + 100) & 0xf;
    return version == 4 || version == 5;
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

bool Volume::checksumOk(QByteArrayView bytes, size_t crcOffset) const
{
    if (kChecksumsAlwaysPass)
        return bytes.size() >= qsizetype(crcOffset + 4);
    if (bytes.size() < qsizetype(crcOffset + 4))
        return false;
    QByteArray copy = bytes.toByteArray();
    const uint32_t stored = le32(copy.constData() + crcOffset);
    std::memset(copy.data() + crcOffset, 0, 4);
    return crc32c(copy.constData(), size_t(copy.size())) == stored;
}

Result<void> Volume::readSuperblock()
{
    char sb[512];
    if (auto read = source_->readExact(0, std::span(sb, sizeof sb)); !read)
        return read;
    const QString name = source_->name();
    if (std::memcmp(sb, "XFSB", 4) != 0)
        return Error::format(name, 0, QStringLiteral("no XFS superblock magic"));
    versionBits_ = be16(sb + 100);
    version_ = int(versionBits_ & 0xf);
    if (version_ != 4 && version_ != 5)
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("XFS superblock version %1 (4 and 5 are read)").arg(version_), 100);
    blockSize_ = be32(sb + 4);
    blockCount_ = be64(sb + 8);
    const uint64_t realtimeBlocks = be64(sb + 16);
    rootInode_ = be64(sb + 56);
    agBlocks_ = be32(sb + 84);
    agCount_ = be32(sb + 88);
    const uint32_t sectorSize = be16(sb + 102);
    inodeSize_ = be16(sb + 104);
    const uint32_t inodesPerBlock = be16(sb + 106);
    label_ = QByteArray(sb + 108, 12);
    label_.truncate(qsizetype(std::strlen(label_.constData())));
    const uint8_t blockLog = uint8_t(sb[120]);
    const uint8_t inodeLog = uint8_t(sb[122]);
    inodesPerBlockLog_ = uint8_t(sb[123]);
    agBlockLog_ = uint8_t(sb[124]);
    const uint8_t dirBlockLog = uint8_t(sb[192]);
    features2_ = be32(sb + 200);
    uuid_ = QUuid::fromRfc4122(QByteArrayView(sb + 32, 16)).toString(QUuid::WithoutBraces);
    auto bad = [&](uint64_t offset, const QString &what) { return Error::format(name, offset, QStringLiteral("XFS superblock: %1").arg(what)); };
    if (blockSize_ < 512 || blockSize_ > 65536 || (blockSize_ & (blockSize_ - 1)) || blockLog != log2Exact(blockSize_))
        return bad(4, QStringLiteral("block size %1").arg(blockSize_));
    if (inodeSize_ < 256 || inodeSize_ > 2048 || (inodeSize_ & (inodeSize_ - 1)) || inodeLog != log2Exact(inodeSize_) || inodeSize_ > blockSize_)
        return bad(104, QStringLiteral("inode size %1").arg(inodeSize_));
    if (inodesPerBlock != blockSize_ / inodeSize_ || inodesPerBlockLog_ != log2Exact(inodesPerBlock))
        return bad(106, QStringLiteral("%1 inodes per block").arg(inodesPerBlock));
    if (agBlocks_ == 0 || agCount_ == 0 || agBlockLog_ != log2Exact(agBlocks_) || agBlockLog_ > 31)
        return bad(84, QStringLiteral("allocation groups of %1 blocks (log %2)").arg(agBlocks_).arg(agBlockLog_));
    if (sectorSize < 512 || sectorSize > 32768 || (sectorSize & (sectorSize - 1)))
        return bad(102, QStringLiteral("sector size %1").arg(sectorSize));
    if (dirBlockLog > 6 || (uint64_t(blockSize_) << dirBlockLog) > 65536)
        return bad(192, QStringLiteral("directory blocks of 2^%1 blocks").arg(dirBlockLog));
    dirBlockSize_ = blockSize_ << dirBlockLog;
    if (version_ == 5) {
        compat_ = be32(sb + 208);
        roCompat_ = be32(sb + 212);
        incompat_ = be32(sb + 216);
        QByteArray whole(qsizetype(sectorSize), Qt::Uninitialized);
        if (auto read = source_->readExact(0, std::span(whole.data(), size_t(whole.size()))); !read)
            return read;
        if (!checksumOk(whole, 224))
            return Error::make(ErrorKind::Checksum, name, QStringLiteral("XFS superblock fails its checksum"), 224);
        if (incompat_ & kIncompatNeedsRepair)
            return Error::make(ErrorKind::Unsupported, name, QStringLiteral("the XFS volume is marked as needing repair (xfs_repair clears it)"), 216);
        if (const uint32_t unknown = incompat_ & ~kKnownIncompat)
            return Error::make(ErrorKind::Unsupported, name, QStringLiteral("XFS incompatible feature 0x%1, which ArchiveScope does not read").arg(unknown, 0, 16), 216);
        ftype_ = incompat_ & kIncompatFtype;
        bigExtentCounts_ = incompat_ & kIncompatNrext64;
    } else {
        // v4: the directory entries carry a file type when MOREBITS and FTYPE are both set.
        ftype_ = (versionBits_ & 0x8000) && (features2_ & 0x200);
    }
    realtimeBlocks_ = realtimeBlocks; // its files are refused one by one (isRealtime)
    if (rootInode_ == 0)
        return bad(56, QStringLiteral("no root inode"));
    if (blockCount_ > source_->size() / blockSize_)
        return Error::format(name, source_->size(), QStringLiteral("the XFS volume is cut short: %1 bytes of its %2").arg(source_->size()).arg(blockCount_ * blockSize_));
    return {};
}

QStringList Volume::features() const
{
    QStringList out;
    out << QStringLiteral("v%1").arg(version_);
    if (ftype_)
        out << QStringLiteral("ftype");
    if (version_ == 5) {
        out << QStringLiteral("crc");
        if (incompat_ & kIncompatSpinodes)
            out << QStringLiteral("sparse_inodes");
        if (incompat_ & kIncompatBigtime)
            out << QStringLiteral("bigtime");
        if (incompat_ & kIncompatNrext64)
            out << QStringLiteral("nrext64");
        if (incompat_ & kIncompatMetaUuid)
            out << QStringLiteral("meta_uuid");
        if (roCompat_ & 0x1)
            out << QStringLiteral("finobt");
        if (roCompat_ & 0x2)
            out << QStringLiteral("rmapbt");
        if (roCompat_ & 0x4)
            out << QStringLiteral("reflink");
        if (roCompat_ & 0x8)
            out << QStringLiteral("inobtcount");
    }
    return out;
}

QString Volume::where(uint64_t inode) const
{
    return source_->name() + QStringLiteral(" (inode %1)").arg(inode);
}

std::optional<uint64_t> Volume::volumeBlock(uint64_t fsblock) const
{
    const uint64_t ag = fsblock >> agBlockLog_;
    const uint64_t block = fsblock & ((uint64_t(1) << agBlockLog_) - 1);
    if (ag >= agCount_ || block >= agBlocks_)
        return std::nullopt;
    const uint64_t out = ag * agBlocks_ + block;
    if (out >= blockCount_)
        return std::nullopt;
    return out;
}

Result<void> Volume::cachedRead(uint64_t offset, std::span<char> out) const
{
    size_t done = 0;
    while (done < out.size()) {
        const uint64_t at = offset + done;
        const uint64_t chunk = at / kCacheChunk;
        QByteArray bytes;
        {
            std::lock_guard lock(cacheMutex_);
            bytes = cache_.value(chunk);
        }
        if (bytes.isEmpty()) {
            const uint64_t start = chunk * kCacheChunk;
            bytes.resize(qsizetype(std::min<uint64_t>(kCacheChunk, source_->size() > start ? source_->size() - start : 0)));
            if (bytes.isEmpty())
                return Error::format(source_->name(), at, QStringLiteral("past the end of the XFS volume"));
            if (auto read = source_->readExact(start, std::span(bytes.data(), size_t(bytes.size()))); !read)
                return read;
            std::lock_guard lock(cacheMutex_);
            if (cache_.size() >= kCacheChunks)
                cache_.clear();
            cache_.insert(chunk, bytes);
        }
        const uint64_t within = at - chunk * kCacheChunk;
        if (within >= uint64_t(bytes.size()))
            return Error::format(source_->name(), at, QStringLiteral("past the end of the XFS volume"));
        const size_t n = size_t(std::min<uint64_t>(out.size() - done, uint64_t(bytes.size()) - within));
        std::memcpy(out.data() + done, bytes.constData() + within, n);
        done += n;
    }
    return {};
}

Result<Inode> Volume::inode(uint64_t number) const
{
    const uint32_t perBlockLog = inodesPerBlockLog_;
    const uint64_t fsblock = number >> perBlockLog;
    const auto block = volumeBlock(fsblock);
    const QString name = where(number);
    if (!block)
        return Error::format(name, std::nullopt, QStringLiteral("inode number %1 lies outside the volume").arg(number));
    const uint64_t offset = *block * blockSize_ + (number & ((uint64_t(1) << perBlockLog) - 1)) * inodeSize_;
    QByteArray raw(qsizetype(inodeSize_), Qt::Uninitialized);
    if (auto read = cachedRead(offset, std::span(raw.data(), size_t(raw.size()))); !read)
        return std::move(read).error();
    const char *p = raw.constData();
    if (be16(p) != kInodeMagic)
        return Error::format(name, offset, QStringLiteral("no inode magic"));
    Inode n;
    n.number = number;
    n.mode = be16(p + 2);
    const uint8_t version = uint8_t(p[4]);
    n.format = uint8_t(p[5]);
    n.uid = be32(p + 8);
    n.gid = be32(p + 12);
    n.links = version == 1 ? be16(p + 6) : be32(p + 16);
    n.size = be64(p + 56);
    n.flags = be16(p + 90);
    uint32_t core = 100;
    if (version == 3) {
        if (!checksumOk(raw, 100))
            return Error::make(ErrorKind::Checksum, name, QStringLiteral("inode fails its checksum"), offset + 100);
        if (be64(p + 152) != number)
            return Error::format(name, offset + 152, QStringLiteral("inode says it is inode %1").arg(be64(p + 152)));
        n.flags2 = be64(p + 120);
        core = 176;
    } else if (version != 1 && version != 2) {
        return Error::format(name, offset + 4, QStringLiteral("inode version %1").arg(version));
    }
    const bool bigCounts = bigExtentCounts_ && (n.flags2 & (1u << 4));
    n.extents = bigCounts ? be64(p + 24) : be32(p + 76);
    if (n.flags2 & (1u << 3)) {
        // bigtime: nanoseconds since 1901-12-13 (the old 32-bit epoch's start)
        const uint64_t ns = be64(p + 40);
        n.mtime = int64_t(ns / 1000000000u) - (int64_t(1) << 31);
        n.mtimeNsec = uint32_t(ns % 1000000000u);
    } else {
        n.mtime = int32_t(be32(p + 40));
        n.mtimeNsec = be32(p + 44);
    }
    const uint8_t forkOffset = uint8_t(p[82]);
    uint32_t forkEnd = inodeSize_;
    if (forkOffset) {
        forkEnd = core + uint32_t(forkOffset) * 8;
        if (forkEnd > inodeSize_)
            return Error::format(name, offset + 82, QStringLiteral("attribute fork offset %1 past the inode").arg(forkOffset));
    }
    n.fork = raw.mid(core, forkEnd - core);
    if (n.format == 0 && n.fork.size() >= 4)
        n.rdev = be32(n.fork.constData());
    return n;
}

Result<void> Volume::addExtents(const char *records, uint64_t count, const QString &name, std::vector<BlockRun> &out) const
{
    for (uint64_t i = 0; i < count; ++i) {
        const uint64_t l0 = be64(records + i * 16);
        const uint64_t l1 = be64(records + i * 16 + 8);
        BlockRun run;
        run.zeros = l0 >> 63; // unwritten: allocated, reads as zeros
        run.logical = (l0 & ((uint64_t(1) << 63) - 1)) >> 9;
        const uint64_t fsblock = ((l0 & 0x1ff) << 43) | (l1 >> 21);
        run.count = l1 & ((uint64_t(1) << 21) - 1);
        if (run.count == 0)
            return Error::make(ErrorKind::Damaged, name, QStringLiteral("an extent of no blocks"));
        const auto first = volumeBlock(fsblock);
        const auto last = volumeBlock(fsblock + run.count - 1);
        if (!first || !last || *last != *first + run.count - 1)
            return Error::make(ErrorKind::Damaged, name, QStringLiteral("an extent (%1 blocks at %2) lies outside its allocation group").arg(run.count).arg(fsblock));
        run.physical = *first;
        out.push_back(run);
    }
    return {};
}

Result<void> Volume::collectBtree(uint64_t fsblock, int level, const QString &name, std::vector<BlockRun> &out, uint64_t &visited) const
{
    if (level < 0 || level >= kMaxBtreeLevels)
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("extent B-tree level %1").arg(level));
    if (++visited > blockCount_ || visited > 100'000'000)
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("the extent B-tree visits more blocks than the volume has"));
    const auto block = volumeBlock(fsblock);
    if (!block)
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("an extent B-tree block (%1) lies outside the volume").arg(fsblock));
    const uint64_t offset = *block * blockSize_;
    QByteArray raw(qsizetype(blockSize_), Qt::Uninitialized);
    if (auto read = source_->readExact(offset, std::span(raw.data(), size_t(raw.size()))); !read)
        return read;
    const char *p = raw.constData();
    const uint32_t magic = be32(p);
    uint32_t header = 24;
    if (magic == kBmap3Magic) {
        header = 72;
        if (!checksumOk(raw, 64))
            return Error::make(ErrorKind::Checksum, name, QStringLiteral("extent B-tree block fails its checksum"), offset + 64);
    } else if (magic != kBmapMagic) {
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("no extent B-tree magic at block %1").arg(fsblock));
    }
    if (be16(p + 4) != level)
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("extent B-tree block %1 is at level %2, expected %3").arg(fsblock).arg(be16(p + 4)).arg(level));
    const uint32_t records = be16(p + 6);
    const uint32_t max = (blockSize_ - header) / 16;
    if (records > max)
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("extent B-tree block %1 holds %2 records of at most %3").arg(fsblock).arg(records).arg(max));
    if (level == 0)
        return addExtents(p + header, records, name, out);
    for (uint32_t i = 0; i < records; ++i)
        if (auto ok = collectBtree(be64(p + header + uint64_t(max) * 8 + uint64_t(i) * 8), level - 1, name, out, visited); !ok)
            return ok;
    return {};
}

Result<std::vector<BlockRun>> Volume::runs(const Inode &n, const QString &name) const
{
    std::vector<BlockRun> out;
    const char *fork = n.fork.constData();
    const uint64_t forkSize = uint64_t(n.fork.size());
    if (n.format == 2) {
        if (n.extents > forkSize / 16)
            return Error::make(ErrorKind::Damaged, name, QStringLiteral("%1 extents do not fit the inode's %2-byte fork").arg(n.extents).arg(forkSize));
        if (auto ok = addExtents(fork, n.extents, name, out); !ok)
            return std::move(ok).error();
    } else if (n.format == 3) {
        // The root in the inode: level, count, then keys and pointers sized to the fork.
        if (forkSize < 4)
            return Error::make(ErrorKind::Damaged, name, QStringLiteral("an extent B-tree root in a fork of %1 bytes").arg(forkSize));
        const uint32_t level = be16(fork);
        const uint32_t records = be16(fork + 2);
        const uint64_t max = (forkSize - 4) / 16;
        if (level == 0 || records > max)
            return Error::make(ErrorKind::Damaged, name, QStringLiteral("extent B-tree root of level %1 with %2 records").arg(level).arg(records));
        uint64_t visited = 0;
        for (uint32_t i = 0; i < records; ++i)
            if (auto ok = collectBtree(be64(fork + 4 + max * 8 + uint64_t(i) * 8), int(level) - 1, name, out, visited); !ok)
                return std::move(ok).error();
    } else if (n.format == 1) {
        return out; // local: no blocks
    } else {
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("data fork format %1 for a file").arg(n.format));
    }
    std::sort(out.begin(), out.end(), [](const BlockRun &a, const BlockRun &b) { return a.logical < b.logical; });
    for (size_t i = 1; i < out.size(); ++i)
        if (out[i].logical < out[i - 1].logical + out[i - 1].count)
            return Error::make(ErrorKind::Damaged, name, QStringLiteral("two extents both hold file block %1").arg(out[i].logical));
    return out;
}

Result<SourcePtr> Volume::fileSource(const Inode &file, QString name) const
{
    if (file.isRealtime())
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("the file lives on the XFS realtime volume, which ArchiveScope does not read"));
    if (file.format == 1) {
        if (file.size > uint64_t(file.fork.size()))
            return Error::make(ErrorKind::Damaged, name, QStringLiteral("a local file of %1 bytes in a %2-byte fork").arg(file.size).arg(file.fork.size()));
        return SourcePtr(std::make_shared<BlockRunSource>(source_, std::vector<BlockRun>(), blockSize_, 0, std::move(name)));
    }
    auto mapped = runs(file, name);
    if (!mapped)
        return std::move(mapped).error();
    return SourcePtr(std::make_shared<BlockRunSource>(source_, std::move(mapped).value(), blockSize_, file.size, std::move(name)));
}

Result<void> Volume::parseShortForm(const Inode &dir, std::vector<DirEntry> &out) const
{
    const QByteArray &f = dir.fork;
    const QString name = where(dir.number);
    if (f.size() < 6)
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("a short-form directory of %1 bytes").arg(f.size()));
    const uint32_t count = uint8_t(f[0]);
    const uint32_t wide = uint8_t(f[1]); // nonzero: every inode number takes 8 bytes
    const uint32_t inoSize = wide ? 8 : 4;
    qsizetype pos = 2 + inoSize; // past the parent
    const qsizetype end = qsizetype(std::min<uint64_t>(dir.size, uint64_t(f.size())));
    for (uint32_t i = 0; i < count; ++i) {
        if (pos + 3 > end)
            return Error::make(ErrorKind::Damaged, name, QStringLiteral("short-form directory entry %1 runs past the directory").arg(i));
        const uint32_t length = uint8_t(f[pos]);
        const qsizetype size = 3 + length + (ftype_ ? 1 : 0) + inoSize;
        if (length == 0 || pos + size > end)
            return Error::make(ErrorKind::Damaged, name, QStringLiteral("short-form directory entry %1 runs past the directory").arg(i));
        DirEntry e;
        e.name = f.mid(pos + 3, length);
        const char *ino = f.constData() + pos + 3 + length + (ftype_ ? 1 : 0);
        e.inode = wide ? be64(ino) & ((uint64_t(1) << 56) - 1) : be32(ino);
        out.push_back(std::move(e));
        pos += size;
    }
    return {};
}

Result<void> Volume::parseDataBlock(QByteArrayView block, uint64_t at, const QString &name, std::vector<DirEntry> &out) const
{
    const char *p = block.data();
    const uint32_t magic = be32(p);
    qsizetype pos = 16;
    qsizetype end = block.size();
    if (magic == kDir3BlockMagic || magic == kDir3DataMagic) {
        if (!checksumOk(block, 4))
            return Error::make(ErrorKind::Checksum, name, QStringLiteral("directory block fails its checksum"), at + 4);
        pos = 64;
    } else if (magic != kDirBlockMagic && magic != kDirDataMagic) {
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("no directory data magic in the block at %1").arg(at));
    }
    if (magic == kDirBlockMagic || magic == kDir3BlockMagic) {
        // A single-block directory keeps its hash leaf at the end: count entries of 8 bytes and a tail.
        const uint64_t leaves = be32(p + block.size() - 8);
        if (leaves * 8 + 8 > uint64_t(block.size() - pos))
            return Error::make(ErrorKind::Damaged, name, QStringLiteral("a directory block's leaf of %1 entries overruns it").arg(leaves));
        end = block.size() - 8 - qsizetype(leaves) * 8;
    }
    while (pos + 8 <= end) {
        if (be16(p + pos) == 0xffff) {
            const uint32_t length = be16(p + pos + 2);
            if (length < 8 || (length & 7) || pos + length > end)
                return Error::make(ErrorKind::Damaged, name, QStringLiteral("a free space of %1 bytes in the directory block at %2").arg(length).arg(at));
            pos += length;
            continue;
        }
        const uint32_t length = uint8_t(p[pos + 8]);
        const qsizetype size = (8 + 1 + length + (ftype_ ? 1 : 0) + 2 + 7) & ~qsizetype(7);
        if (length == 0 || pos + size > end)
            return Error::make(ErrorKind::Damaged, name, QStringLiteral("a directory entry overruns the block at %1").arg(at));
        const QByteArray entryName(p + pos + 9, length);
        if (entryName != "." && entryName != "..")
            out.push_back({be64(p + pos), entryName});
        if (out.size() > kMaxDirEntries)
            return Error::make(ErrorKind::Limit, name, QStringLiteral("more than %1 directory entries").arg(kMaxDirEntries));
        pos += size;
    }
    return {};
}

Result<std::vector<DirEntry>> Volume::directory(const Inode &dir) const
{
    std::vector<DirEntry> out;
    const QString name = where(dir.number);
    if (dir.format == 1) {
        if (auto ok = parseShortForm(dir, out); !ok)
            return std::move(ok).error();
        return out;
    }
    auto mapped = runs(dir, name);
    if (!mapped)
        return std::move(mapped).error();
    const uint64_t leafBlock = kDirLeafOffset / blockSize_;
    const uint64_t perDirBlock = dirBlockSize_ / blockSize_;
    BlockRunSource data(source_, *mapped, blockSize_, kDirLeafOffset, name);
    QByteArray block(qsizetype(dirBlockSize_), Qt::Uninitialized);
    uint64_t next = 0; // the next directory block not yet read (runs may split one)
    for (const BlockRun &run : *mapped) {
        if (run.logical >= leafBlock)
            break;
        uint64_t first = std::max(next, run.logical - run.logical % perDirBlock);
        for (uint64_t b = first; b < std::min(run.logical + run.count, leafBlock); b += perDirBlock) {
            if (auto read = data.readExact(b * blockSize_, std::span(block.data(), size_t(block.size()))); !read)
                return std::move(read).error();
            if (auto ok = parseDataBlock(block, run.physical * blockSize_ + (b - run.logical) * blockSize_, name, out); !ok)
                return std::move(ok).error();
            next = b + perDirBlock;
        }
    }
    return out;
}

Result<QByteArray> Volume::symlinkTarget(const Inode &link) const
{
    const QString name = where(link.number);
    if (link.size > kMaxSymlink)
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("a symlink of %1 bytes").arg(link.size));
    if (link.format == 1) {
        if (link.size > uint64_t(link.fork.size()))
            return Error::make(ErrorKind::Damaged, name, QStringLiteral("a symlink of %1 bytes in a %2-byte fork").arg(link.size).arg(link.fork.size()));
        return link.fork.left(qsizetype(link.size));
    }
    auto mapped = runs(link, name);
    if (!mapped)
        return std::move(mapped).error();
    QByteArray target;
    for (const BlockRun &run : *mapped) {
        for (uint64_t b = 0; b < run.count && uint64_t(target.size()) < link.size; ++b) {
            QByteArray raw(qsizetype(blockSize_), Qt::Uninitialized);
            if (auto read = source_->readExact((run.physical + b) * blockSize_, std::span(raw.data(), size_t(raw.size()))); !read)
                return std::move(read).error();
            if (version_ == 5) {
                if (be32(raw.constData()) != kSymlinkMagic)
                    return Error::make(ErrorKind::Damaged, name, QStringLiteral("no symlink block magic"));
                if (!checksumOk(raw, 12))
                    return Error::make(ErrorKind::Checksum, name, QStringLiteral("symlink block fails its checksum"), (run.physical + b) * blockSize_ + 12);
                const uint32_t bytes = be32(raw.constData() + 8);
                if (56 + uint64_t(bytes) > blockSize_)
                    return Error::make(ErrorKind::Damaged, name, QStringLiteral("a symlink block claims %1 bytes").arg(bytes));
                target += raw.mid(56, bytes);
            } else {
                target += raw;
            }
        }
    }
    if (uint64_t(target.size()) < link.size)
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("the symlink's blocks hold %1 of its %2 bytes").arg(target.size()).arg(link.size));
    target.truncate(qsizetype(link.size));
    return target;
}

} // namespace asc::xfs
