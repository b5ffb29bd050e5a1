// SPDX-License-Identifier: MIT
#include "vm_images.h"

#include "formats/image/extent.h"
#include "io/big_endian.h"
#include "io/little_endian.h"

#include <QJsonObject>
#include <cstring>
#include <libdeflate.h>
#include <vector>

namespace asc {

namespace {

constexpr uint64_t kMaxTable = 256ULL << 20; // no block map larger than this is believed

Result<QByteArray> readTable(const ByteSource &file, uint64_t offset, uint64_t bytes, const QString &what)
{
    if (bytes > kMaxTable)
        return Error::format(file.name(), offset, QStringLiteral("%1 too large (%2 bytes)").arg(what).arg(bytes));
    if (offset > file.size() || file.size() - offset < bytes)
        return Error::format(file.name(), offset, QStringLiteral("%1 (%2 bytes) lies beyond the end of the file").arg(what).arg(bytes));
    QByteArray table(qsizetype(bytes), Qt::Uninitialized);
    if (auto read = file.readExact(offset, std::span(table.data(), size_t(bytes))); !read)
        return std::move(read).error();
    return table;
}

// ---------------------------------------------------------------- VDI
class VdiImage final : public BlockImage {
public:
    VdiImage(SourcePtr file, uint64_t size, uint64_t blockSize, uint64_t dataOffset, uint64_t extra, QByteArray map, uint32_t type)
        : BlockImage(std::move(file), size, blockSize),
          dataOffset_(dataOffset),
          extra_(extra),
          map_(std::move(map)),
          type_(type) {}
    QString formatName() const override { return QStringLiteral("vdi"); }
    QJsonObject info() const override
    {
        return {{QStringLiteral("format"), QStringLiteral("vdi")}, {QStringLiteral("image_type"), type_ == 2 ? QStringLiteral("fixed") : QStringLiteral("dynamic")}, {QStringLiteral("virtual_size"), double(size_)}, {QStringLiteral("block_size"), double(blockSize_)}, {QStringLiteral("blocks"), double(map_.size() / 4)}, {QStringLiteral("data_offset"), double(dataOffset_)}, {QStringLiteral("file_size"), double(file_->size())}};
    }

protected:
    bool holesArePresent() const override { return true; }
    Result<Block> block(uint64_t index) const override
    {
        if (index * 4 + 4 > uint64_t(map_.size()))
            return Block{};
        const uint32_t entry = le32(map_.constData() + index * 4);
        if (entry == 0xFFFFFFFFu)
            return Block{};
        if (entry == 0xFFFFFFFEu)
            return Block{Block::Zero, 0, true};
        return Block{Block::Data, dataOffset_ + uint64_t(entry) * (blockSize_ + extra_) + extra_, true};
    }

private:
    uint64_t dataOffset_, extra_;
    QByteArray map_;
    uint32_t type_;
};

// ---------------------------------------------------------------- VHD
class VhdImage final : public BlockImage {
public:
    VhdImage(SourcePtr file, uint64_t size, uint64_t blockSize, QByteArray bat, uint64_t bitmapBytes, bool fixed)
        : BlockImage(std::move(file), size, blockSize),
          bat_(std::move(bat)),
          bitmapBytes_(bitmapBytes),
          fixed_(fixed) {}
    QString formatName() const override { return QStringLiteral("vpc"); }
    QJsonObject info() const override
    {
        return {{QStringLiteral("format"), QStringLiteral("vpc")}, {QStringLiteral("disk_type"), fixed_ ? QStringLiteral("fixed") : QStringLiteral("dynamic")}, {QStringLiteral("virtual_size"), double(size_)}, {QStringLiteral("block_size"), double(blockSize_)}, {QStringLiteral("bat_entries"), double(bat_.size() / 4)}, {QStringLiteral("file_size"), double(file_->size())}};
    }

protected:
    bool holesArePresent() const override { return true; }
    Result<Block> block(uint64_t index) const override
    {
        if (fixed_)
            return Block{Block::Data, index * blockSize_, true};
        if (index * 4 + 4 > uint64_t(bat_.size()))
            return Block{};
        const uint32_t sector = be32(bat_.constData() + index * 4);
        if (sector == 0xFFFFFFFFu)
            return Block{};
        return Block{Block::Data, uint64_t(sector) * 512 + bitmapBytes_, true};
    }

private:
    QByteArray bat_;
    uint64_t bitmapBytes_;
    bool fixed_;
};

// ---------------------------------------------------------------- VMDK (sparse extent)
class VmdkImage final : public BlockImage {
public:
    VmdkImage(SourcePtr file, uint64_t size, uint64_t grain, std::vector<uint32_t> gd, uint32_t gtEntries, bool compressed, bool zeroGrains, QString kind)
        : BlockImage(std::move(file), size, grain),
          gd_(std::move(gd)),
          gtEntries_(gtEntries),
          compressed_(compressed),
          zeroGrains_(zeroGrains),
          kind_(std::move(kind)) {}
    QString formatName() const override { return QStringLiteral("vmdk"); }
    QJsonObject info() const override
    {
        return {{QStringLiteral("format"), QStringLiteral("vmdk")}, {QStringLiteral("create_type"), kind_}, {QStringLiteral("virtual_size"), double(size_)}, {QStringLiteral("grain_size"), double(blockSize_)}, {QStringLiteral("grain_table_entries"), double(gtEntries_)}, {QStringLiteral("grain_directory_entries"), double(gd_.size())}, {QStringLiteral("compressed"), compressed_}, {QStringLiteral("file_size"), double(file_->size())}};
    }

protected:
    Result<Block> block(uint64_t index) const override
    {
        const uint64_t gdIndex = index / gtEntries_;
        if (gdIndex >= gd_.size() || gd_[gdIndex] == 0)
            return Block{};
        const uint64_t gtOffset = uint64_t(gd_[gdIndex]) * 512 + (index % gtEntries_) * 4;
        char raw[4];
        if (auto read = file_->readExact(gtOffset, raw); !read)
            return Error::format(name(), gtOffset, QStringLiteral("grain table lies beyond the end of the file"));
        const uint32_t sector = le32(raw);
        if (sector == 0)
            return Block{};
        if (sector == 1 && zeroGrains_)
            return Block{Block::Zero, 0, true};
        return Block{compressed_ ? Block::Compressed : Block::Data, uint64_t(sector) * 512, true};
    }

    Result<QByteArray> decompress(uint64_t index, const Block &b) const override
    {
        // A grain marker: u64 LBA, u32 compressed size, then RFC 1950 zlib data.
        char marker[12];
        if (auto read = file_->readExact(b.host, marker); !read)
            return std::move(read).error();
        const uint32_t compressedSize = le32(marker + 8);
        if (le64(marker) != index * (blockSize_ / 512))
            return Error::format(name(), b.host, QStringLiteral("grain marker names sector %1, expected %2").arg(le64(marker)).arg(index * (blockSize_ / 512)));
        if (compressedSize > 2 * blockSize_ + 1024 || b.host + 12 + compressedSize > file_->size())
            return Error::format(name(), b.host, QStringLiteral("compressed grain of %1 bytes is implausible").arg(compressedSize));
        QByteArray input(qsizetype(compressedSize), Qt::Uninitialized);
        if (auto read = file_->readExact(b.host + 12, std::span(input.data(), compressedSize)); !read)
            return std::move(read).error();
        QByteArray out(qsizetype(blockSize_), '\0');
        thread_local std::unique_ptr<libdeflate_decompressor, void (*)(libdeflate_decompressor *)> inflater(libdeflate_alloc_decompressor(), libdeflate_free_decompressor);
        size_t produced = 0;
        const auto rc = libdeflate_zlib_decompress(inflater.get(), input.constData(), compressedSize, out.data(), size_t(out.size()), &produced);
        if (rc != LIBDEFLATE_SUCCESS)
            return Error::format(name(), b.host, QStringLiteral("compressed grain does not inflate (error %1)").arg(int(rc)));
        return out; // a short last grain leaves zeros
    }

private:
    std::vector<uint32_t> gd_;
    uint32_t gtEntries_;
    bool compressed_;
    bool zeroGrains_;
    QString kind_;
};

// ---------------------------------------------------------------- VHDX
class VhdxImage final : public BlockImage {
public:
    VhdxImage(SourcePtr file, uint64_t size, uint64_t blockSize, QByteArray bat, uint64_t chunkRatio, uint32_t sector)
        : BlockImage(std::move(file), size, blockSize),
          bat_(std::move(bat)),
          chunkRatio_(chunkRatio),
          sector_(sector) {}
    QString formatName() const override { return QStringLiteral("vhdx"); }
    QJsonObject info() const override
    {
        return {{QStringLiteral("format"), QStringLiteral("vhdx")}, {QStringLiteral("virtual_size"), double(size_)}, {QStringLiteral("block_size"), double(blockSize_)}, {QStringLiteral("logical_sector_size"), double(sector_)}, {QStringLiteral("chunk_ratio"), double(chunkRatio_)}, {QStringLiteral("file_size"), double(file_->size())}};
    }

protected:
    bool holesArePresent() const override { return true; }
    Result<Block> block(uint64_t index) const override
    {
        const uint64_t entryIndex = index + index / chunkRatio_; // a sector-bitmap entry after every chunk
        if (entryIndex * 8 + 8 > uint64_t(bat_.size()))
            return Block{};
        const uint64_t entry = le64(bat_.constData() + entryIndex * 8);
        const unsigned state = unsigned(entry & 7);
        const uint64_t offset = (entry >> 20) << 20;
        switch (state) {
        case 6: // fully present
            return Block{Block::Data, offset, true};
        case 2: // zero
            return Block{Block::Zero, 0, true};
        case 7:
            return Error::make(ErrorKind::Unsupported, name(), QStringLiteral("partially present blocks (differencing VHDX) are not supported"), entryIndex * 8);
        default: // not present, undefined, unmapped
            return Block{};
        }
    }

private:
    QByteArray bat_;
    uint64_t chunkRatio_;
    uint32_t sector_;
};

bool guidIs(const char *p, const char *text)
{
    // Text GUID to its mixed-endian on-disk bytes.
    const QByteArray hex = QByteArray(text).replace("-", "");
    const QByteArray b = QByteArray::fromHex(hex);
    char disk[16];
    for (int i = 0; i < 4; ++i)
        disk[i] = b[3 - i];
    disk[4] = b[5];
    disk[5] = b[4];
    disk[6] = b[7];
    disk[7] = b[6];
    std::memcpy(disk + 8, b.constData() + 8, 8);
    return std::memcmp(p, disk, 16) == 0;
}

} // namespace

int probeVdi(std::span<const char> head)
{
    return head.size() >= 0x200 && le32(head.data() + 0x40) == 0xBEDA107Fu ? 95 : 0;
}

int probeVhd(const ByteSource &file, std::span<const char> head)
{
    if (head.size() >= 8 && std::memcmp(head.data(), "conectix", 8) == 0)
        return 95;
    char footer[8];
    if (file.size() >= 512 && file.readExact(file.size() - 512, footer) && std::memcmp(footer, "conectix", 8) == 0)
        return 85; // fixed VHD: raw data and a footer
    return 0;
}

int probeVmdk(std::span<const char> head)
{
    if (head.size() >= 4 && std::memcmp(head.data(), "KDMV", 4) == 0)
        return 95;
    return 0;
}

int probeVhdx(std::span<const char> head)
{
    return head.size() >= 8 && std::memcmp(head.data(), "vhdxfile", 8) == 0 ? 95 : 0;
}

Result<std::shared_ptr<DiskImage>> openVdi(SourcePtr file)
{
    char h[0x200];
    if (auto read = file->readExact(0, h); !read)
        return std::move(read).error();
    const uint32_t type = le32(h + 0x4C);
    const uint64_t mapOffset = le32(h + 0x154);
    const uint64_t dataOffset = le32(h + 0x158);
    const uint64_t size = le64(h + 0x170);
    const uint64_t blockSize = le32(h + 0x178);
    const uint64_t extra = le32(h + 0x17C);
    const uint64_t blocks = le32(h + 0x180);
    if (type != 1 && type != 2)
        return Error::make(ErrorKind::Unsupported, file->name(), QStringLiteral("VDI image type %1 is not supported (dynamic and fixed are)").arg(type), 0x4C);
    if (blockSize < 512 || blockSize > (256u << 20) || (blockSize & (blockSize - 1)))
        return Error::format(file->name(), 0x178, QStringLiteral("VDI block size %1 invalid").arg(blockSize));
    if (blocks * blockSize < size)
        return Error::format(file->name(), 0x180, QStringLiteral("VDI block map (%1 blocks) too small for %2 bytes").arg(blocks).arg(size));
    auto map = readTable(*file, mapOffset, blocks * 4, QStringLiteral("VDI block map"));
    if (!map)
        return std::move(map).error();
    return std::shared_ptr<DiskImage>(std::make_shared<VdiImage>(file, size, blockSize, dataOffset, extra, std::move(map).value(), type));
}

// The virtual size as qemu (and Virtual PC) reads it (qemu's block/vpc.c): Virtual PC sizes a disk
// by its CHS geometry, Hyper-V and most others by the footer's current size. The creator decides;
// a disk at the largest geometry is sized by the footer (its geometry would truncate it).
static uint64_t vhdVirtualSize(const char *footer)
{
    const uint64_t current = be64(footer + 48);
    const uint64_t chs = uint64_t(be16(footer + 56)) * uint8_t(footer[58]) * uint8_t(footer[59]);
    static const char *bySize[] = {"win ", "qem2", "d2v ", "CTXS"};
    bool useChs = std::memcmp(footer + 28, "tap\0", 4) != 0;
    for (const char *creator : bySize)
        useChs = useChs && std::memcmp(footer + 28, creator, 4) != 0;
    constexpr uint64_t kMaxGeometry = 65535ull * 16 * 255;
    if (!useChs || chs == kMaxGeometry || chs == 0)
        return current;
    return chs * 512;
}

Result<std::shared_ptr<DiskImage>> openVhd(SourcePtr file)
{
    if (file->size() < 512)
        return Error::format(file->name(), 0, QStringLiteral("too small for a VHD"));
    char footer[512];
    if (auto read = file->readExact(file->size() - 512, footer); !read)
        return std::move(read).error();
    if (std::memcmp(footer, "conectix", 8) != 0 && file->readExact(0, footer) && std::memcmp(footer, "conectix", 8) != 0)
        return Error::format(file->name(), file->size() - 512, QStringLiteral("no VHD footer"));
    const uint64_t size = vhdVirtualSize(footer);
    const uint32_t type = be32(footer + 60);
    if (type == 2) {
        if (size > file->size() - 512)
            return Error::format(file->name(), file->size() - 512, QStringLiteral("fixed VHD larger than its file"));
        return std::shared_ptr<DiskImage>(std::make_shared<VhdImage>(file, size, 2 << 20, QByteArray(), 0, true));
    }
    if (type == 4)
        return Error::make(ErrorKind::Unsupported, file->name(), QStringLiteral("differencing VHD (with a parent disk) is not supported"), file->size() - 452);
    if (type != 3)
        return Error::make(ErrorKind::Unsupported, file->name(), QStringLiteral("VHD disk type %1 is not supported").arg(type), file->size() - 452);
    const uint64_t dynamicAt = be64(footer + 16);
    char dyn[1024];
    if (auto read = file->readExact(dynamicAt, dyn); !read)
        return std::move(read).error();
    if (std::memcmp(dyn, "cxsparse", 8) != 0)
        return Error::format(file->name(), dynamicAt, QStringLiteral("VHD dynamic header missing"));
    const uint64_t batOffset = be64(dyn + 16);
    const uint64_t entries = be32(dyn + 28);
    const uint64_t blockSize = be32(dyn + 32);
    if (blockSize < 512 || blockSize > (256u << 20) || (blockSize & 511))
        return Error::format(file->name(), dynamicAt + 32, QStringLiteral("VHD block size %1 invalid").arg(blockSize));
    if (entries * blockSize < size)
        return Error::format(file->name(), dynamicAt + 28, QStringLiteral("VHD block table too small"));
    auto bat = readTable(*file, batOffset, entries * 4, QStringLiteral("VHD block allocation table"));
    if (!bat)
        return std::move(bat).error();
    const uint64_t bitmap = ((blockSize / 512 / 8) + 511) / 512 * 512;
    return std::shared_ptr<DiskImage>(std::make_shared<VhdImage>(file, size, blockSize, std::move(bat).value(), bitmap, false));
}

Result<std::shared_ptr<DiskImage>> openVmdk(SourcePtr file)
{
    char h[512];
    if (auto read = file->readExact(0, h); !read)
        return std::move(read).error();
    uint32_t flags = le32(h + 8);
    uint64_t capacity = le64(h + 12);
    uint64_t grain = le64(h + 20);
    uint32_t gtEntries = le32(h + 44);
    uint64_t gdOffset = le64(h + 56);
    QString kind = QStringLiteral("monolithicSparse");
    if (gdOffset == UINT64_MAX) {
        // streamOptimized: the real header is the footer, 1024 bytes before the end.
        if (file->size() < 1536)
            return Error::format(file->name(), 0, QStringLiteral("streamOptimized VMDK without a footer"));
        char f[512];
        if (auto read = file->readExact(file->size() - 1024, f); !read)
            return std::move(read).error();
        if (std::memcmp(f, "KDMV", 4) != 0)
            return Error::format(file->name(), file->size() - 1024, QStringLiteral("VMDK footer missing"));
        flags = le32(f + 8);
        capacity = le64(f + 12);
        grain = le64(f + 20);
        gtEntries = le32(f + 44);
        gdOffset = le64(f + 56);
        kind = QStringLiteral("streamOptimized");
    } else if (flags & (1u << 16)) {
        kind = QStringLiteral("streamOptimized");
    }
    if (grain == 0 || grain > 2048 || (grain & (grain - 1)) || gtEntries == 0 || gtEntries > 65536)
        return Error::format(file->name(), 20, QStringLiteral("VMDK grain size %1 or table size %2 invalid").arg(grain).arg(gtEntries));
    if (capacity > (1ULL << 44))
        return Error::format(file->name(), 12, QStringLiteral("VMDK capacity of %1 sectors is absurd").arg(capacity));
    const uint64_t grainBytes = grain * 512;
    const uint64_t gdEntries = (capacity + grain * gtEntries - 1) / (grain * gtEntries);
    auto gdRaw = readTable(*file, gdOffset * 512, gdEntries * 4, QStringLiteral("VMDK grain directory"));
    if (!gdRaw)
        return std::move(gdRaw).error();
    std::vector<uint32_t> gd(gdEntries);
    for (uint64_t i = 0; i < gdEntries; ++i)
        gd[i] = le32(gdRaw->constData() + i * 4);
    const bool compressed = flags & (1u << 16);
    const bool zeroGrains = flags & (1u << 2);
    return std::shared_ptr<DiskImage>(std::make_shared<VmdkImage>(file, capacity * 512, grainBytes, std::move(gd), gtEntries, compressed, zeroGrains, kind));
}

Result<std::shared_ptr<DiskImage>> openVhdx(SourcePtr file)
{
    const QString name = file->name();
    // Two headers; the valid one with the higher sequence number wins.
    uint64_t bestSequence = 0;
    bool found = false;
    char header[4096];
    for (uint64_t at : {64ULL << 10, 128ULL << 10}) {
        char h[4096];
        if (!file->readExact(at, h) || std::memcmp(h, "head", 4) != 0)
            continue;
        char copy[4096];
        std::memcpy(copy, h, sizeof copy);
        std::memset(copy + 4, 0, 4);
        if (crc32c(copy, sizeof copy) != le32(h + 4))
            continue;
        const uint64_t sequence = le64(h + 8);
        if (!found || sequence > bestSequence) {
            bestSequence = sequence;
            std::memcpy(header, h, sizeof header);
            found = true;
        }
    }
    if (!found)
        return Error::format(name, 64 << 10, QStringLiteral("no valid VHDX header (signature or CRC-32C)"));
    static const char zeroGuid[16] = {};
    if (std::memcmp(header + 48, zeroGuid, 16) != 0)
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("VHDX log is not empty (the disk was not closed cleanly): replaying it is not supported"), 64 << 10);
    char regions[65536];
    if (auto read = file->readExact(192 << 10, regions); !read)
        return std::move(read).error();
    if (std::memcmp(regions, "regi", 4) != 0)
        return Error::format(name, 192 << 10, QStringLiteral("VHDX region table missing"));
    const uint32_t count = le32(regions + 8);
    if (count > 2047)
        return Error::format(name, (192 << 10) + 8, QStringLiteral("VHDX region table has %1 entries").arg(count));
    uint64_t batOffset = 0, batLength = 0, metaOffset = 0, metaLength = 0;
    for (uint32_t i = 0; i < count; ++i) {
        const char *e = regions + 16 + i * 32;
        if (guidIs(e, "2DC27766-F623-4200-9D64-115E9BFD4A08")) {
            batOffset = le64(e + 16);
            batLength = le32(e + 24);
        } else if (guidIs(e, "8B7CA206-4790-4B9A-B8FE-575F050F886E")) {
            metaOffset = le64(e + 16);
            metaLength = le32(e + 24);
        }
    }
    if (!batLength || !metaLength)
        return Error::format(name, 192 << 10, QStringLiteral("VHDX lacks its BAT or metadata region"));
    auto meta = readTable(*file, metaOffset, metaLength, QStringLiteral("VHDX metadata region"));
    if (!meta)
        return std::move(meta).error();
    if (!meta->startsWith("metadata"))
        return Error::format(name, metaOffset, QStringLiteral("VHDX metadata table missing"));
    const uint16_t items = le16(meta->constData() + 10);
    uint64_t blockSize = 0, size = 0;
    uint32_t sector = 512;
    bool hasParent = false;
    for (uint16_t i = 0; i < items && 32 + (i + 1) * 32 <= meta->size(); ++i) {
        const char *e = meta->constData() + 32 + i * 32;
        const uint32_t offset = le32(e + 16);
        if (offset + 8 > uint64_t(meta->size()))
            continue;
        const char *value = meta->constData() + offset;
        if (guidIs(e, "CAA16737-FA36-4D43-B3B6-33F0AA44E76B")) {
            blockSize = le32(value);
            hasParent = le32(value + 4) & 2;
        } else if (guidIs(e, "2FA54224-CD1B-4876-B211-5DBED83BF4B8")) {
            size = le64(value);
        } else if (guidIs(e, "8141BF1D-A96F-4709-BA47-F233A8FAAB5F")) {
            sector = le32(value);
        }
    }
    if (hasParent)
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("differencing VHDX (with a parent disk) is not supported"), metaOffset);
    if (blockSize < (1u << 20) || blockSize > (256u << 20) || (blockSize & (blockSize - 1)) || (sector != 512 && sector != 4096))
        return Error::format(name, metaOffset, QStringLiteral("VHDX block size %1 or sector size %2 invalid").arg(blockSize).arg(sector));
    const uint64_t chunkRatio = (uint64_t(1) << 23) * sector / blockSize;
    auto bat = readTable(*file, batOffset, batLength, QStringLiteral("VHDX block allocation table"));
    if (!bat)
        return std::move(bat).error();
    return std::shared_ptr<DiskImage>(std::make_shared<VhdxImage>(file, size, blockSize, std::move(bat).value(), chunkRatio, sector));
}

QString unreadImageFormat(const ByteSource &file, std::span<const char> head, bool lookAtEnd)
{
    auto at = [&](size_t offset, const char *magic) {
        const size_t n = std::strlen(magic);
        return head.size() >= offset + n && std::memcmp(head.data() + offset, magic, n) == 0;
    };
    if (at(0, "WithoutFreeSpace") || at(0, "WithouFreSpacExt"))
        return QStringLiteral("Parallels");
    if (at(0, "Bochs Virtual HD Image"))
        return QStringLiteral("Bochs");
    if (at(0, "#!/bin/sh") && QByteArrayView(head.data(), qsizetype(std::min<size_t>(head.size(), 128))).contains("#V2.0 Format"))
        return QStringLiteral("cloop");
    if (at(0, "QED\0"))
        return QStringLiteral("QED");
    if (at(0, "COWD"))
        return QStringLiteral("VMware COWD (ESX sparse)");
    // Apple's UDIF keeps its "koly" trailer in the last 512 bytes.
    char trailer[4];
    if (lookAtEnd && file.size() >= 512 && file.fileExtent(file.size() - 512) && file.readExact(file.size() - 512, std::span(trailer, 4)) && std::memcmp(trailer, "koly", 4) == 0)
        return QStringLiteral("DMG (Apple UDIF)");
    return {};
}

} // namespace asc
