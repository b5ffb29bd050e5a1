// SPDX-License-Identifier: MIT
#include "ext_volume.h"

#include "formats/filesystem/block_run_source.h"

#include "io/little_endian.h"
#include "io/memory_source.h"
#include "io/trace.h"

#include <QStringList>
#include <algorithm>
#include <cstring>

namespace asc::ext {

namespace {

constexpr uint64_t kSuperblock = 1024;
constexpr uint64_t kChunk = 64 * 1024;
constexpr int kCachedChunks = 512; // 32 MiB of inode tables at most
// The kernel stops at 5; e2fsck keeps deeper trees' data (and makes them shallower): read them.
constexpr int kMaxExtentDepth = 32;
constexpr int kMaxExtentNodes = 1 << 16;

// Incompatible features (s_feature_incompat) this reader knows; any other bit is refused by name.
enum Incompat : uint32_t {
    Compression = 0x1,
    Filetype = 0x2,
    Recover = 0x4,
    JournalDev = 0x8,
    MetaBg = 0x10,
    Extents = 0x40,
    Bit64 = 0x80,
    Mmp = 0x100,
    FlexBg = 0x200,
    EaInode = 0x400,
    DirData = 0x1000,
    CsumSeed = 0x2000,
    LargeDir = 0x4000,
    InlineData = 0x8000,
    Encrypt = 0x10000,
    Casefold = 0x20000,
};
constexpr uint32_t kKnownIncompat = Filetype | Recover | MetaBg | Extents | Bit64 | Mmp | FlexBg | EaInode | CsumSeed | LargeDir |
                                    InlineData | Encrypt | Casefold;
constexpr uint32_t kRoSparseSuper = 0x1;
constexpr uint32_t kRoHugeFile = 0x8;
constexpr uint32_t kCompatJournal = 0x4;

bool isPowerOf(uint32_t n, uint32_t base)
{
    while (n > 1 && n % base == 0)
        n /= base;
    return n == 1;
}

} // namespace

bool looksLikeExt(const ByteSource &source)
{
    char magic[2];
    return source.size() >= 2048 && source.readExact(kSuperblock + 56, magic) && uint8_t(magic[0]) == 0x53 && uint8_t(magic[1]) == 0xEF;
}

Volume::Volume(SourcePtr source)
    : source_(std::move(source))
{
}

Result<std::shared_ptr<Volume>> Volume::open(SourcePtr source)
{
    std::shared_ptr<Volume> volume(new Volume(std::move(source)));
    if (auto read = volume->readSuperblock(); !read)
        return std::move(read).error();
    return volume;
}

Result<void> Volume::readSuperblock()
{
    char sb[1024];
    if (auto read = source_->readExact(kSuperblock, sb); !read)
        return std::move(read).error();
    const QString name = source_->name();
    if (uint8_t(sb[56]) != 0x53 || uint8_t(sb[57]) != 0xEF)
        return Error::format(name, kSuperblock + 56, QStringLiteral("no ext2/3/4 superblock (magic 0xEF53)"));
    inodeCount_ = le32(sb + 0);
    blockCount_ = le32(sb + 4);
    firstDataBlock_ = le32(sb + 20);
    const uint32_t logBlock = le32(sb + 24);
    blocksPerGroup_ = le32(sb + 32);
    inodesPerGroup_ = le32(sb + 40);
    revision_ = le32(sb + 76);
    if (logBlock > 6)
        return Error::format(name, kSuperblock + 24, QStringLiteral("block size 2^%1 KiB is not an ext block size").arg(logBlock));
    blockSize_ = 1024u << logBlock;
    clusterSize_ = blockSize_;
    if (revision_ >= 1) {
        inodeSize_ = le16(sb + 88);
        compat_ = le32(sb + 92);
        incompat_ = le32(sb + 96);
        roCompat_ = le32(sb + 100);
        label_ = QByteArray(sb + 120, 16);
        label_.truncate(qsizetype(qstrnlen(label_.constData(), 16)));
    }
    if (incompat_ & Bit64) {
        blockCount_ |= uint64_t(le32(sb + 336)) << 32;
        descSize_ = le16(sb + 254);
        if (descSize_ < 32 || descSize_ > 1024 || (descSize_ & (descSize_ - 1)))
            return Error::format(name, kSuperblock + 254, QStringLiteral("group descriptor size %1 is not valid").arg(descSize_));
    }
    firstMetaBg_ = le32(sb + 260);
    if (roCompat_ & 0x200) { // bigalloc: blocks are allocated (and counted) by clusters
        const uint32_t logCluster = le32(sb + 28);
        if (logCluster > 16 || logCluster < logBlock)
            return Error::format(name, kSuperblock + 28, QStringLiteral("cluster size 2^%1 KiB is not valid").arg(logCluster));
        clusterSize_ = 1024u << logCluster;
    }
    if (inodeSize_ < 128 || inodeSize_ > blockSize_ || (inodeSize_ & (inodeSize_ - 1)))
        return Error::format(name, kSuperblock + 88, QStringLiteral("inode size %1 is not valid").arg(inodeSize_));
    if (inodesPerGroup_ == 0 || blocksPerGroup_ == 0 || inodeCount_ == 0)
        return Error::format(name, kSuperblock, QStringLiteral("a superblock with no inodes or blocks per group"));
    if (const uint32_t unknown = incompat_ & ~kKnownIncompat) {
        QStringList named;
        if (unknown & Compression)
            named << QStringLiteral("compression");
        if (unknown & JournalDev)
            named << QStringLiteral("an external journal device");
        if (unknown & DirData)
            named << QStringLiteral("dirdata (Lustre)");
        if (named.isEmpty())
            named << QStringLiteral("incompatible feature bits 0x%1").arg(unknown, 0, 16);
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("this ext filesystem uses %1, which ArchiveScope does not read").arg(named.join(QStringLiteral(", "))));
    }
    return {};
}

QString Volume::kind() const
{
    if (incompat_ & (Extents | Bit64 | FlexBg | InlineData))
        return QStringLiteral("ext4");
    return (compat_ & kCompatJournal) ? QStringLiteral("ext3") : QStringLiteral("ext2");
}

QStringList Volume::features() const
{
    static const std::pair<uint32_t, const char *> incompat[] = {{Filetype, "filetype"}, {Recover, "needs_recovery"}, {MetaBg, "meta_bg"}, {Extents, "extent"}, {Bit64, "64bit"}, {Mmp, "mmp"}, {FlexBg, "flex_bg"}, {EaInode, "ea_inode"}, {CsumSeed, "metadata_csum_seed"}, {LargeDir, "large_dir"}, {InlineData, "inline_data"}, {Encrypt, "encrypt"}, {Casefold, "casefold"}};
    QStringList out;
    if (compat_ & kCompatJournal)
        out << QStringLiteral("has_journal");
    if (compat_ & 0x20)
        out << QStringLiteral("dir_index");
    for (const auto &[bit, text] : incompat)
        if (incompat_ & bit)
            out << QLatin1String(text);
    if (roCompat_ & 0x200)
        out << QStringLiteral("bigalloc");
    if (roCompat_ & 0x400)
        out << QStringLiteral("metadata_csum");
    return out;
}

QString Volume::where(uint32_t inode) const
{
    return QStringLiteral("%1 (inode %2)").arg(source_->name()).arg(inode);
}

bool Volume::groupHasSuperblock(uint32_t group) const
{
    if (!(roCompat_ & kRoSparseSuper) || group <= 1)
        return true;
    return isPowerOf(group, 3) || isPowerOf(group, 5) || isPowerOf(group, 7);
}

uint64_t Volume::descriptorOffset(uint32_t group) const
{
    const uint64_t perBlock = blockSize_ / descSize_;
    const uint64_t metaGroup = group / perBlock;
    // The table follows the superblock's block (block 1 of 1 KiB blocks, else block 0; not the
    // first data block, which bigalloc sets to 0 with 1 KiB blocks).
    if (!(incompat_ & MetaBg) || metaGroup < firstMetaBg_)
        return (kSuperblock / blockSize_ + 1) * blockSize_ + uint64_t(group) * descSize_;
    // meta_bg: each meta group's descriptors sit in its first group, after a superblock copy.
    const uint32_t first = uint32_t(metaGroup * perBlock);
    const uint64_t block = uint64_t(firstDataBlock_) + uint64_t(first) * blocksPerGroup_ + (groupHasSuperblock(first) ? 1 : 0);
    return block * blockSize_ + (group % perBlock) * descSize_;
}

Result<void> Volume::cachedRead(uint64_t offset, std::span<char> out) const
{
    size_t done = 0;
    while (done < out.size()) {
        const uint64_t at = offset + done;
        const uint64_t chunk = at / kChunk;
        QByteArray bytes;
        {
            std::lock_guard lock(cacheMutex_);
            bytes = cache_.value(chunk);
        }
        if (bytes.isEmpty()) {
            const uint64_t start = chunk * kChunk;
            if (start >= source_->size())
                return Error::format(source_->name(), at, QStringLiteral("past the end of the volume"));
            bytes.resize(qsizetype(std::min<uint64_t>(kChunk, source_->size() - start)));
            const TraceLayer layer("ext metadata");
            if (auto read = source_->readExact(start, std::span(bytes.data(), size_t(bytes.size()))); !read)
                return std::move(read).error();
            std::lock_guard lock(cacheMutex_);
            if (cache_.size() >= kCachedChunks)
                cache_.clear();
            cache_.insert(chunk, bytes);
        }
        const uint64_t within = at - chunk * kChunk;
        if (within >= uint64_t(bytes.size()))
            return Error::format(source_->name(), at, QStringLiteral("past the end of the volume"));
        const size_t n = size_t(std::min<uint64_t>(out.size() - done, uint64_t(bytes.size()) - within));
        std::memcpy(out.data() + done, bytes.constData() + within, n);
        done += n;
    }
    return {};
}

Result<uint64_t> Volume::inodeTableBlock(uint32_t group) const
{
    const uint64_t at = descriptorOffset(group);
    char desc[64] = {};
    if (auto read = cachedRead(at, std::span(desc, std::min<size_t>(descSize_, sizeof desc))); !read)
        return std::move(read).error();
    uint64_t block = le32(desc + 8);
    if (descSize_ >= 64)
        block |= uint64_t(le32(desc + 0x28)) << 32;
    if (block == 0 || block >= blockCount_)
        return Error::format(source_->name(), at, QStringLiteral("group %1's inode table is at block %2, outside the volume").arg(group).arg(block));
    return block;
}

Result<Inode> Volume::inode(uint32_t number) const
{
    if (number == 0 || number > inodeCount_)
        return Error::format(source_->name(), std::nullopt, QStringLiteral("inode %1 is outside 1..%2").arg(number).arg(inodeCount_));
    const uint32_t group = (number - 1) / inodesPerGroup_;
    const uint32_t index = (number - 1) % inodesPerGroup_;
    auto table = inodeTableBlock(group);
    if (!table)
        return std::move(table).error();
    const uint64_t at = *table * blockSize_ + uint64_t(index) * inodeSize_;
    QByteArray raw(qsizetype(inodeSize_), Qt::Uninitialized);
    if (auto read = cachedRead(at, std::span(raw.data(), size_t(raw.size()))); !read)
        return std::move(read).error();
    const char *p = raw.constData();
    Inode n;
    n.number = number;
    n.mode = le16(p + 0);
    n.uid = le16(p + 2) | uint32_t(le16(p + 120)) << 16;
    n.gid = le16(p + 24) | uint32_t(le16(p + 122)) << 16;
    n.size = le32(p + 4);
    if (n.isFile() || (incompat_ & LargeDir))
        n.size |= uint64_t(le32(p + 108)) << 32;
    n.mtime = int32_t(le32(p + 16));
    n.links = le16(p + 26);
    n.flags = le32(p + 32);
    n.blocks512 = le32(p + 28) | uint64_t(le16(p + 116)) << 32;
    if ((roCompat_ & kRoHugeFile) && (n.flags & 0x40000)) // EXT4_HUGE_FILE_FL: counted in blocks
        n.blocks512 *= blockSize_ / 512;
    n.fileAcl = le32(p + 104) | uint64_t(le16(p + 118)) << 32;
    n.iblock = raw.mid(40, 60);
    uint32_t extra = 0;
    if (inodeSize_ > 128) {
        extra = le16(p + 128);
        if (128 + extra > inodeSize_)
            return Error::format(source_->name(), at + 128, QStringLiteral("inode %1's extra size %2 runs past the inode").arg(number).arg(extra));
        if (extra >= 24) { // i_mtime_extra: nanoseconds, and two more bits of the seconds
            const uint32_t more = le32(p + 136);
            n.mtimeNsec = more >> 2;
            n.mtime += int64_t(more & 3) << 32;
        }
    }
    if (n.hasInlineData()) {
        // In-inode attributes after the extra fields: ext4_xattr_ibody_header (its magic), then
        // entries; the value of "system.data" (index 7, name "data") continues the data.
        const uint32_t base = 128 + extra;
        if (base + 4 <= inodeSize_ && le32(p + base) == 0xEA020000) {
            const uint32_t first = base + 4;
            for (uint32_t e = first; e + 16 <= inodeSize_ && le32(p + e) != 0;) {
                const uint8_t nameLength = uint8_t(p[e]);
                const uint8_t nameIndex = uint8_t(p[e + 1]);
                const uint32_t valueOffset = le16(p + e + 2);
                const uint32_t valueSize = le32(p + e + 8);
                if (e + 16 + nameLength > inodeSize_)
                    break;
                if (nameIndex == 7 && QByteArrayView(p + e + 16, nameLength) == "data") {
                    if (uint64_t(first) + valueOffset + valueSize > inodeSize_)
                        return Error::format(source_->name(), at + first + valueOffset,
                                             QStringLiteral("inode %1's inline data attribute runs past the inode").arg(number));
                    n.inlineTail = raw.mid(qsizetype(first + valueOffset), qsizetype(valueSize));
                    break;
                }
                e += (16 + nameLength + 3) & ~3u;
            }
        }
    }
    return n;
}

Result<void> Volume::collectExtents(const QByteArray &node, std::optional<uint64_t> at, int depth, const QString &name, std::vector<Run> &out,
                                    int &visited) const
{
    if (++visited > kMaxExtentNodes)
        return Error::format(name, at, QStringLiteral("extent tree has more than %1 nodes (a loop?)").arg(kMaxExtentNodes));
    if (node.size() < 12 || le16(node.constData()) != 0xF30A)
        return Error::format(name, at, QStringLiteral("extent tree node without its magic 0xF30A (volume offset %1)").arg(at.value_or(0)));
    const uint16_t entries = le16(node.constData() + 2);
    const uint16_t nodeDepth = le16(node.constData() + 6);
    if (qsizetype(12 + entries * 12) > node.size())
        return Error::format(name, at, QStringLiteral("extent node claims %1 entries, more than it holds").arg(entries));
    if (nodeDepth != depth && depth >= 0)
        return Error::format(name, at, QStringLiteral("extent tree node at volume offset %1 says depth %2 where %3 was due (a loop or damage)").arg(at.value_or(0)).arg(nodeDepth).arg(depth));
    if (nodeDepth > kMaxExtentDepth)
        return Error::format(name, at, QStringLiteral("extent tree %1 deep (at most %2)").arg(nodeDepth).arg(kMaxExtentDepth));
    uint64_t nextAllowed = 0; // entries of a node go up in file order without overlapping (as the kernel checks)
    for (uint16_t i = 0; i < entries; ++i) {
        const char *e = node.constData() + 12 + i * 12;
        const uint64_t logical = le32(e);
        if (logical < nextAllowed)
            return Error::format(name, at, QStringLiteral("extents out of order or overlapping at file block %1 (e2fsck clears them)").arg(logical));
        nextAllowed = nodeDepth == 0 ? logical + std::max<uint32_t>(1, le16(e + 4) > 32768 ? le16(e + 4) - 32768 : le16(e + 4)) : logical + 1;
        if (nodeDepth == 0) {
            Run run;
            run.logical = le32(e);
            uint32_t length = le16(e + 4);
            if (length > 32768) {
                run.zeros = true; // unwritten: allocated, reads as zeros
                length -= 32768;
            }
            run.count = length;
            run.physical = le32(e + 8) | uint64_t(le16(e + 6)) << 32;
            if (run.count == 0)
                continue;
            if (out.size() >= blockCount_) // more extents than the volume has blocks: a tree that repeats itself
                return Error::format(name, at, QStringLiteral("extent tree names more extents than the volume has blocks"));
            if (!run.zeros && run.physical + run.count > blockCount_)
                return Error::format(name, at, QStringLiteral("extent at block %1 (+%2) is outside the volume").arg(run.physical).arg(run.count));
            out.push_back(run);
        } else {
            const uint64_t child = le32(e + 4) | uint64_t(le16(e + 8)) << 32;
            if (child == 0 || child >= blockCount_)
                return Error::format(name, at, QStringLiteral("extent index points at block %1, outside the volume").arg(child));
            const uint64_t childAt = child * blockSize_;
            QByteArray block(qsizetype(blockSize_), Qt::Uninitialized);
            const TraceLayer layer("ext extent tree");
            if (auto read = source_->readExact(childAt, std::span(block.data(), size_t(block.size()))); !read)
                return std::move(read).error();
            if (auto more = collectExtents(block, childAt, nodeDepth - 1, name, out, visited); !more)
                return more;
        }
    }
    return {};
}

Result<void> Volume::collectMapped(uint64_t block, int level, uint64_t &logical, uint64_t end, std::vector<Run> &out, const QString &name) const
{
    const uint64_t perBlock = blockSize_ / 4;
    uint64_t span = 1;
    for (int i = 0; i < level; ++i)
        span *= perBlock;
    if (block == 0) { // a hole as large as what this pointer covers
        logical += span;
        return {};
    }
    if (block >= blockCount_)
        return Error::format(name, block * blockSize_, QStringLiteral("block pointer %1 is outside the volume").arg(block));
    if (level == 0) {
        if (!out.empty() && !out.back().zeros && out.back().logical + out.back().count == logical && out.back().physical + out.back().count == block)
            ++out.back().count;
        else if (out.size() >= blockCount_) // more pieces than the volume has blocks: pointers repeat
            return Error::format(name, block * blockSize_, QStringLiteral("block map names more pieces than the volume has blocks"));
        else
            out.push_back({logical, block, 1, false});
        ++logical;
        return {};
    }
    QByteArray pointers(qsizetype(blockSize_), Qt::Uninitialized);
    const TraceLayer layer("ext block map");
    if (auto read = source_->readExact(block * blockSize_, std::span(pointers.data(), size_t(pointers.size()))); !read)
        return std::move(read).error();
    for (uint64_t i = 0; i < perBlock && logical < end; ++i)
        if (auto more = collectMapped(le32(pointers.constData() + i * 4), level - 1, logical, end, out, name); !more)
            return more;
    return {};
}

Result<std::vector<Run>> Volume::runs(const Inode &n, const QString &name) const
{
    std::vector<Run> out;
    if (n.hasInlineData())
        return out;
    if (n.usesExtents()) {
        int visited = 0;
        if (auto collected = collectExtents(n.iblock, std::nullopt, -1, name, out, visited); !collected)
            return std::move(collected).error();
        std::sort(out.begin(), out.end(), [](const Run &a, const Run &b) { return a.logical < b.logical; });
        for (size_t i = 1; i < out.size(); ++i)
            if (out[i].logical < out[i - 1].logical + out[i - 1].count)
                return Error::format(name, std::nullopt, QStringLiteral("extents overlap at file block %1").arg(out[i].logical));
        return out;
    }
    // ext2/3: twelve direct blocks, then single, double and triple indirect blocks.
    const uint64_t end = (n.size + blockSize_ - 1) / blockSize_;
    uint64_t logical = 0;
    for (int i = 0; i < 15 && logical < end; ++i) {
        const int level = i < 12 ? 0 : i - 11;
        if (auto mapped = collectMapped(le32(n.iblock.constData() + i * 4), level, logical, end, out, name); !mapped)
            return std::move(mapped).error();
    }
    return out;
}

namespace {

// A file's bytes from its runs; what no run covers (a hole) and unwritten extents are zeros.

} // namespace

Result<SourcePtr> Volume::fileSource(const Inode &file, QString name) const
{
    if (file.isEncrypted())
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("the file is encrypted (ext4 fscrypt): ArchiveScope cannot decrypt it"));
    if (file.hasInlineData()) {
        QByteArray bytes = file.iblock + file.inlineTail;
        if (uint64_t(bytes.size()) < file.size)
            return Error::make(ErrorKind::Damaged, name,
                               QStringLiteral("inline data holds %1 bytes of the file's %2 (damaged inode %3)").arg(bytes.size()).arg(file.size).arg(file.number));
        bytes.truncate(qsizetype(file.size));
        return SourcePtr(std::make_shared<MemorySource>(std::move(bytes), std::move(name)));
    }
    auto mapped = runs(file, name);
    if (!mapped) {
        Error damaged = std::move(mapped).error();
        if (damaged.kind == ErrorKind::Format)
            damaged.kind = ErrorKind::Damaged; // this file's extents or blocks: the others still read
        return damaged;
    }
    return SourcePtr(std::make_shared<BlockRunSource>(source_, std::move(mapped).value(), blockSize_, file.size, std::move(name)));
}

Result<QByteArray> Volume::content(const Inode &n, uint64_t limit) const
{
    if (n.size > limit)
        return Error::format(where(n.number), std::nullopt, QStringLiteral("%1 bytes, more than the %2 read for metadata").arg(n.size).arg(limit));
    auto source = fileSource(n, where(n.number));
    if (!source)
        return std::move(source).error();
    QByteArray bytes(qsizetype(n.size), Qt::Uninitialized);
    if (auto read = (*source)->readExact(0, std::span(bytes.data(), size_t(bytes.size()))); !read)
        return std::move(read).error();
    return bytes;
}

Result<void> Volume::parseEntries(QByteArrayView area, uint64_t at, uint32_t dir, std::vector<DirEntry> &out) const
{
    qsizetype pos = 0;
    while (pos + 8 <= area.size()) {
        const char *e = area.data() + pos;
        const uint32_t inode = le32(e);
        uint32_t recLength = le16(e + 4);
        if (recLength == 0 || recLength == 65535) // 64 KiB blocks store their length this way
            recLength = uint32_t(std::min<qsizetype>(65536, area.size() - pos));
        const uint32_t nameLength = (incompat_ & Filetype) ? uint8_t(e[6]) : le16(e + 6);
        if (recLength < 8 || pos + recLength > area.size() || 8 + nameLength > recLength)
            return Error::format(where(dir), at + uint64_t(pos),
                                 QStringLiteral("directory entry with length %1 and name length %2 does not fit its block").arg(recLength).arg(nameLength));
        if (inode != 0 && nameLength > 0) {
            const QByteArray name(e + 8, qsizetype(nameLength));
            if (name != "." && name != "..")
                out.push_back({inode, name});
        }
        pos += recLength;
    }
    return {};
}

Result<std::vector<DirEntry>> Volume::directory(const Inode &dir) const
{
    std::vector<DirEntry> out;
    if (dir.isEncrypted())
        return Error::make(ErrorKind::Unsupported, where(dir.number), QStringLiteral("the folder is encrypted (ext4 fscrypt): its names cannot be read"));
    if (dir.hasInlineData()) {
        // The parent's inode number, then entries in the rest of i_block and in system.data.
        if (auto parsed = parseEntries(QByteArrayView(dir.iblock).sliced(4), 0, dir.number, out); !parsed)
            return std::move(parsed).error();
        if (auto parsed = parseEntries(dir.inlineTail, 0, dir.number, out); !parsed)
            return std::move(parsed).error();
        return out;
    }
    auto mapped = runs(dir, where(dir.number));
    if (!mapped)
        return std::move(mapped).error();
    // Block by block: an entry never crosses a block, and an htree's index blocks read as one
    // empty entry each, so its leaves are read as a linear directory's blocks.
    QByteArray block(qsizetype(blockSize_), Qt::Uninitialized);
    for (const Run &run : *mapped) {
        for (uint64_t i = 0; i < run.count && (run.logical + i) * blockSize_ < std::max<uint64_t>(dir.size, 1); ++i) {
            if (run.zeros)
                continue;
            const uint64_t at = (run.physical + i) * blockSize_;
            const TraceLayer layer("ext directory");
            if (auto read = source_->readExact(at, std::span(block.data(), size_t(block.size()))); !read)
                return std::move(read).error();
            if (auto parsed = parseEntries(block, at, dir.number, out); !parsed)
                return std::move(parsed).error();
        }
    }
    return out;
}

Result<QByteArray> Volume::symlinkTarget(const Inode &link) const
{
    // A fast symlink keeps its target in i_block: no data blocks (besides an attribute block).
    // (the kernel's ext4_inode_is_fast_symlink). A long ("slow") one keeps it in data blocks.
    const uint64_t attributeBlocks = link.fileAcl ? clusterSize_ / 512 : 0;
    if (!link.hasInlineData() && link.size < 60 && link.blocks512 <= attributeBlocks)
        return link.iblock.left(qsizetype(link.size));
    return content(link, 65536);
}

} // namespace asc::ext
