// SPDX-License-Identifier: MIT
#include "squashfs_volume.h"

#include "io/little_endian.h"

#include <cstring>
#include <memory>
#include <libdeflate.h>
#include <lz4.h>
#include <lzma.h>
#include <lzo/lzo1x.h>
#include <zstd.h>

namespace asc::squashfs {

namespace {

constexpr uint32_t kMagic = 0x73717368; // "hsqs"
constexpr uint32_t kMetadataSize = 8192;
constexpr uint32_t kUncompressedBlock = 1u << 24;
constexpr uint32_t kNoFragment = 0xFFFFFFFF;
constexpr uint64_t kMaxDirEntries = 20'000'000;
constexpr int kCachedBlocks = 4096;

// A position in a metadata table: block (from the table's start) and offset in its decoded bytes.
struct Cursor {
    uint64_t block = 0;
    uint32_t offset = 0;
};

} // namespace

std::optional<uint64_t> squashfsOffset(const ByteSource &source, std::span<const char> head)
{
    if (head.size() >= 4 && le32(head.data()) == kMagic)
        return 0;
    // An AppImage: its ELF runtime, then the image, right after the section headers.
    if (head.size() < 64 || std::memcmp(head.data(), "\x7f"
                                                     "ELF",
                                        4) != 0)
        return std::nullopt;
    uint64_t end = 0;
    if (head[4] == 2)
        end = le64(head.data() + 0x28) + uint64_t(le16(head.data() + 0x3A)) * le16(head.data() + 0x3C);
    else if (head[4] == 1)
        end = le32(head.data() + 0x20) + uint64_t(le16(head.data() + 0x2E)) * le16(head.data() + 0x30);
    char magic[4];
    if (end == 0 || end + 96 > source.size() || !source.readExact(end, std::span(magic, 4)) || le32(magic) != kMagic)
        return std::nullopt;
    return end;
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

QString Volume::compressionName() const
{
    static const char *names[] = {"?", "gzip", "lzma", "lzo", "xz", "lz4", "zstd"};
    return QString::fromLatin1(compression_ < 7 ? names[compression_] : "?");
}

Result<void> Volume::readSuperblock()
{
    char sb[96];
    if (auto read = source_->readExact(0, std::span(sb, sizeof sb)); !read)
        return read;
    const QString name = source_->name();
    if (le32(sb) != kMagic)
        return Error::format(name, 0, QStringLiteral("no squashfs magic"));
    const uint16_t major = le16(sb + 28);
    if (major != 4)
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("squashfs %1.%2 (4.0 is read; unsquashfs reads the older ones)").arg(major).arg(le16(sb + 30)), 28);
    inodeCount_ = le32(sb + 4);
    blockSize_ = le32(sb + 12);
    fragmentCount_ = le32(sb + 16);
    compression_ = le16(sb + 20);
    idCount_ = le16(sb + 26);
    rootRef_ = le64(sb + 32);
    bytesUsed_ = le64(sb + 40);
    idTable_ = le64(sb + 48);
    inodeTable_ = le64(sb + 64);
    directoryTable_ = le64(sb + 72);
    fragmentTable_ = le64(sb + 80);
    if (blockSize_ < 4096 || blockSize_ > (1u << 20) || (blockSize_ & (blockSize_ - 1)) || (1u << le16(sb + 22)) != blockSize_)
        return Error::format(name, 12, QStringLiteral("squashfs block size %1").arg(blockSize_));
    if (compression_ < 1 || compression_ > 6)
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("squashfs compression %1, which ArchiveScope does not know").arg(compression_), 20);
    if (bytesUsed_ > source_->size())
        return Error::format(name, source_->size(), QStringLiteral("the squashfs image is cut short: %1 bytes of its %2").arg(source_->size()).arg(bytesUsed_));
    for (uint64_t table : {inodeTable_, directoryTable_})
        if (table >= bytesUsed_)
            return Error::format(name, 64, QStringLiteral("a squashfs table starts at %1, past the image's %2 bytes").arg(table).arg(bytesUsed_));
    return readIds();
}

Result<QByteArray> Volume::decompress(QByteArrayView input, uint32_t limit) const
{
    QByteArray out(qsizetype(limit), Qt::Uninitialized);
    size_t produced = 0;
    bool ok = false;
    switch (compression_) {
    case 1: { // gzip: zlib streams
        thread_local std::unique_ptr<libdeflate_decompressor, void (*)(libdeflate_decompressor *)> d(libdeflate_alloc_decompressor(), libdeflate_free_decompressor);
        size_t consumed = 0;
        ok = libdeflate_zlib_decompress_ex(d.get(), input.data(), size_t(input.size()), out.data(), size_t(out.size()), &consumed, &produced) == LIBDEFLATE_SUCCESS;
        break;
    }
    case 2: { // lzma: the legacy .lzma format
        lzma_stream s = LZMA_STREAM_INIT;
        if (lzma_alone_decoder(&s, 256u << 20) == LZMA_OK) {
            s.next_in = reinterpret_cast<const uint8_t *>(input.data());
            s.avail_in = size_t(input.size());
            s.next_out = reinterpret_cast<uint8_t *>(out.data());
            s.avail_out = size_t(out.size());
            const lzma_ret rc = lzma_code(&s, LZMA_FINISH);
            produced = size_t(out.size()) - s.avail_out;
            ok = rc == LZMA_STREAM_END || (rc == LZMA_OK && s.avail_in == 0);
        }
        lzma_end(&s);
        break;
    }
    case 3: { // lzo
        lzo_uint got = lzo_uint(out.size());
        ok = lzo1x_decompress_safe(reinterpret_cast<const unsigned char *>(input.data()), lzo_uint(input.size()), reinterpret_cast<unsigned char *>(out.data()), &got, nullptr) == LZO_E_OK;
        produced = got;
        break;
    }
    case 4: { // xz
        uint64_t memlimit = 256u << 20;
        size_t inPos = 0;
        ok = lzma_stream_buffer_decode(&memlimit, 0, nullptr, reinterpret_cast<const uint8_t *>(input.data()), &inPos, size_t(input.size()),
                                       reinterpret_cast<uint8_t *>(out.data()), &produced, size_t(out.size())) == LZMA_OK;
        break;
    }
    case 5: { // lz4 blocks
        const int got = LZ4_decompress_safe(input.data(), out.data(), int(input.size()), int(out.size()));
        ok = got >= 0;
        produced = got >= 0 ? size_t(got) : 0;
        break;
    }
    case 6: { // zstd; a context kept per thread (making one per 128 KiB block cost a third of the time)
        thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx *)> context(ZSTD_createDCtx(), ZSTD_freeDCtx);
        const size_t got = ZSTD_decompressDCtx(context.get(), out.data(), size_t(out.size()), input.data(), size_t(input.size()));
        ok = !ZSTD_isError(got);
        produced = ok ? got : 0;
        break;
    }
    default: break;
    }
    if (!ok)
        return Error::make(ErrorKind::Damaged, source_->name(), QStringLiteral("a %1 block does not decode").arg(compressionName()));
    out.truncate(qsizetype(produced));
    return out;
}

Result<std::shared_ptr<const QByteArray>> Volume::metadataBlock(uint64_t at, uint64_t *next) const
{
    {
        std::lock_guard lock(cacheMutex_);
        if (auto it = cache_.find(at); it != cache_.end()) {
            *next = it->second;
            return it->first;
        }
    }
    char header[2];
    if (at + 2 > bytesUsed_)
        return Error::format(source_->name(), at, QStringLiteral("a metadata block past the image's end"));
    if (auto read = source_->readExact(at, std::span(header, 2)); !read)
        return std::move(read).error();
    const uint16_t h = le16(header);
    const uint32_t stored = h & 0x7FFF;
    if (stored == 0 || stored > kMetadataSize || at + 2 + stored > bytesUsed_)
        return Error::format(source_->name(), at, QStringLiteral("a metadata block of %1 bytes").arg(stored));
    QByteArray raw(qsizetype(stored), Qt::Uninitialized);
    if (auto read = source_->readExact(at + 2, std::span(raw.data(), stored)); !read)
        return std::move(read).error();
    QByteArray decoded;
    if (h & 0x8000) {
        decoded = std::move(raw);
    } else {
        auto d = decompress(raw, kMetadataSize);
        if (!d) {
            Error e = std::move(d).error();
            e.kind = ErrorKind::Format;
            e.offset = at;
            return e;
        }
        decoded = std::move(d).value();
    }
    auto block = std::make_shared<const QByteArray>(std::move(decoded));
    *next = at + 2 + stored;
    std::lock_guard lock(cacheMutex_);
    if (cache_.size() >= kCachedBlocks)
        cache_.clear();
    cache_.insert(at, {block, *next});
    return block;
}

Result<QByteArray> Volume::metadata(uint64_t tableStart, uint64_t block, uint32_t offset, uint64_t length, uint64_t *endBlock, uint32_t *endOffset) const
{
    QByteArray out;
    if (length > (64u << 20))
        return Error::format(source_->name(), tableStart + block, QStringLiteral("%1 bytes of metadata asked for").arg(length));
    uint64_t at = tableStart + block;
    for (;;) {
        uint64_t next = 0;
        auto got = metadataBlock(at, &next);
        if (!got)
            return std::move(got).error();
        const QByteArray &bytes = **got;
        if (offset > uint64_t(bytes.size()))
            return Error::format(source_->name(), at, QStringLiteral("offset %1 in a metadata block of %2 bytes").arg(offset).arg(bytes.size()));
        const uint64_t take = std::min<uint64_t>(length - uint64_t(out.size()), uint64_t(bytes.size()) - offset);
        out.append(bytes.constData() + offset, qsizetype(take));
        offset += uint32_t(take);
        if (uint64_t(out.size()) == length) {
            if (endBlock)
                *endBlock = at - tableStart;
            if (endOffset)
                *endOffset = offset;
            return out;
        }
        at = next;
        offset = 0;
    }
}

Result<void> Volume::readIds()
{
    // Every inode names its owner and group by index: the table (at most 65,535 ids) is read once.
    for (uint32_t first = 0; first < idCount_; first += 2048) {
        char pointer[8];
        if (auto read = source_->readExact(idTable_ + (first / 2048) * 8, std::span(pointer, 8)); !read)
            return read;
        const uint32_t count = std::min<uint32_t>(2048, idCount_ - first);
        auto bytes = metadata(le64(pointer), 0, 0, count * 4);
        if (!bytes)
            return std::move(bytes).error();
        for (uint32_t i = 0; i < count; ++i)
            ids_.push_back(le32(bytes->constData() + i * 4));
    }
    return {};
}

Result<uint32_t> Volume::id(uint16_t index) const
{
    if (index >= ids_.size())
        return Error::format(source_->name(), std::nullopt, QStringLiteral("uid/gid index %1 of %2").arg(index).arg(ids_.size()));
    return ids_[index];
}

Result<std::pair<uint64_t, uint32_t>> Volume::fragmentEntry(uint32_t index) const
{
    if (index >= fragmentCount_)
        return Error::make(ErrorKind::Damaged, source_->name(), QStringLiteral("fragment %1 of %2").arg(index).arg(fragmentCount_));
    char pointer[8];
    if (auto read = source_->readExact(fragmentTable_ + uint64_t(index / 512) * 8, std::span(pointer, 8)); !read)
        return std::move(read).error();
    auto bytes = metadata(le64(pointer), 0, (index % 512) * 16, 16);
    if (!bytes)
        return std::move(bytes).error();
    return std::make_pair(le64(bytes->constData()), le32(bytes->constData() + 8));
}

Result<QByteArray> Volume::dataBlock(uint64_t at, uint32_t stored, bool raw, uint32_t expected) const
{
    if (stored > blockSize_ + (blockSize_ >> 4) + 64 || at + stored > bytesUsed_)
        return Error::make(ErrorKind::Damaged, source_->name(), QStringLiteral("a data block of %1 bytes at %2").arg(stored).arg(at));
    QByteArray bytes(qsizetype(stored), Qt::Uninitialized);
    if (auto read = source_->readExact(at, std::span(bytes.data(), stored)); !read)
        return std::move(read).error();
    if (!raw) {
        auto decoded = decompress(bytes, blockSize_);
        if (!decoded) {
            Error e = std::move(decoded).error();
            e.offset = at;
            return e;
        }
        bytes = std::move(decoded).value();
    }
    if (expected && uint32_t(bytes.size()) < expected)
        return Error::make(ErrorKind::Damaged, source_->name(), QStringLiteral("a data block at %1 holds %2 bytes of %3").arg(at).arg(bytes.size()).arg(expected));
    return bytes;
}

QString Volume::where(uint64_t ref) const
{
    return source_->name() + QStringLiteral(" (inode at %1:%2)").arg(ref >> 16).arg(ref & 0xFFFF);
}

Result<Inode> Volume::inode(uint64_t ref) const
{
    const QString name = where(ref);
    Inode n;
    n.ref = ref;
    uint64_t block = ref >> 16;
    uint32_t offset = uint32_t(ref & 0xFFFF);
    auto take = [&](uint64_t length) { return metadata(inodeTable_, block, offset, length, &block, &offset); };
    auto header = take(16);
    if (!header)
        return std::move(header).error();
    const char *h = header->constData();
    n.type = le16(h);
    n.mode = le16(h + 2);
    n.mtime = le32(h + 8);
    auto uid = id(le16(h + 4));
    auto gid = id(le16(h + 6));
    if (!uid || !gid)
        return (!uid ? std::move(uid) : std::move(gid)).error();
    n.uid = *uid;
    n.gid = *gid;
    auto blockList = [&](uint64_t size) -> Result<void> {
        n.size = size;
        const uint64_t count = n.fragment == kNoFragment ? (size + blockSize_ - 1) / blockSize_ : size / blockSize_;
        if (count > (uint64_t(1) << 32))
            return Error::make(ErrorKind::Damaged, name, QStringLiteral("a file of %1 bytes").arg(size));
        auto sizes = take(count * 4);
        if (!sizes)
            return std::move(sizes).error();
        n.blockSizes.resize(size_t(count));
        for (uint64_t i = 0; i < count; ++i)
            n.blockSizes[size_t(i)] = le32(sizes->constData() + i * 4);
        return {};
    };
    switch (n.type) {
    case 1: { // directory
        auto b = take(16);
        if (!b)
            return std::move(b).error();
        n.dirBlock = le32(b->constData());
        n.links = le32(b->constData() + 4);
        n.size = le16(b->constData() + 8);
        n.dirOffset = le16(b->constData() + 10);
        break;
    }
    case 8: { // extended directory (its index is not needed to list it)
        auto b = take(24);
        if (!b)
            return std::move(b).error();
        n.links = le32(b->constData());
        n.size = le32(b->constData() + 4);
        n.dirBlock = le32(b->constData() + 8);
        n.dirOffset = le16(b->constData() + 18);
        break;
    }
    case 2: { // file
        auto b = take(16);
        if (!b)
            return std::move(b).error();
        n.blocksStart = le32(b->constData());
        n.fragment = le32(b->constData() + 4);
        n.fragmentOffset = le32(b->constData() + 8);
        if (auto ok = blockList(le32(b->constData() + 12)); !ok)
            return std::move(ok).error();
        break;
    }
    case 9: { // extended file
        auto b = take(40);
        if (!b)
            return std::move(b).error();
        n.blocksStart = le64(b->constData());
        n.links = le32(b->constData() + 24);
        n.fragment = le32(b->constData() + 28);
        n.fragmentOffset = le32(b->constData() + 32);
        if (auto ok = blockList(le64(b->constData() + 8)); !ok)
            return std::move(ok).error();
        break;
    }
    case 3:
    case 10: { // symlink
        auto b = take(8);
        if (!b)
            return std::move(b).error();
        n.links = le32(b->constData());
        const uint32_t length = le32(b->constData() + 4);
        if (length > 65536)
            return Error::make(ErrorKind::Damaged, name, QStringLiteral("a symlink of %1 bytes").arg(length));
        auto target = take(length);
        if (!target)
            return std::move(target).error();
        n.target = std::move(target).value();
        break;
    }
    case 4:
    case 5:
    case 11:
    case 12: { // block and character devices
        auto b = take(8);
        if (!b)
            return std::move(b).error();
        n.links = le32(b->constData());
        n.device = le32(b->constData() + 4);
        break;
    }
    case 6:
    case 7:
    case 13:
    case 14: { // fifo, socket
        auto b = take(4);
        if (!b)
            return std::move(b).error();
        n.links = le32(b->constData());
        break;
    }
    default: return Error::make(ErrorKind::Damaged, name, QStringLiteral("inode type %1").arg(n.type));
    }
    return n;
}

Result<std::vector<DirEntry>> Volume::directory(const Inode &dir) const
{
    std::vector<DirEntry> out;
    if (dir.size <= 3)
        return out; // empty: the size counts "." and ".." as 3 bytes
    auto listing = metadata(directoryTable_, dir.dirBlock, dir.dirOffset, dir.size - 3);
    if (!listing)
        return std::move(listing).error();
    const QByteArray &l = *listing;
    qsizetype pos = 0;
    while (pos + 12 <= l.size()) {
        const uint32_t count = le32(l.constData() + pos) + 1;
        const uint32_t start = le32(l.constData() + pos + 4);
        pos += 12;
        if (count > 256)
            return Error::make(ErrorKind::Damaged, where(dir.ref), QStringLiteral("a directory header of %1 entries").arg(count));
        for (uint32_t i = 0; i < count; ++i) {
            if (pos + 8 > l.size())
                return Error::make(ErrorKind::Damaged, where(dir.ref), QStringLiteral("a directory entry runs past its listing"));
            const uint16_t offset = le16(l.constData() + pos);
            const uint32_t nameLength = uint32_t(le16(l.constData() + pos + 6)) + 1;
            if (pos + 8 + qsizetype(nameLength) > l.size())
                return Error::make(ErrorKind::Damaged, where(dir.ref), QStringLiteral("a directory entry's name runs past its listing"));
            out.push_back({QByteArray(l.constData() + pos + 8, qsizetype(nameLength)), (uint64_t(start) << 16) | offset});
            pos += 8 + nameLength;
            if (out.size() > kMaxDirEntries)
                return Error::make(ErrorKind::Limit, where(dir.ref), QStringLiteral("more than %1 directory entries").arg(kMaxDirEntries));
        }
    }
    return out;
}

} // namespace asc::squashfs
