// SPDX-License-Identifier: MIT
#include "partition_table.h"

#include <QJsonArray>
#include <QSet>
#include <cstring>
#include <zlib.h>

namespace asc {

namespace {

constexpr uint32_t kMaxGptEntries = 16384;
constexpr int kMaxLogical = 256;

uint32_t le32(const char *p)
{
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
uint64_t le64(const char *p)
{
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

bool isExtended(uint8_t type)
{
    return type == 0x05 || type == 0x0F || type == 0x85;
}

QString mbrTypeName(uint8_t type)
{
    switch (type) {
    case 0x01: return QStringLiteral("FAT12");
    case 0x04: return QStringLiteral("FAT16 <32M");
    case 0x05: return QStringLiteral("Extended");
    case 0x06: return QStringLiteral("FAT16");
    case 0x07: return QStringLiteral("HPFS/NTFS/exFAT");
    case 0x0B: return QStringLiteral("W95 FAT32");
    case 0x0C: return QStringLiteral("W95 FAT32 (LBA)");
    case 0x0E: return QStringLiteral("W95 FAT16 (LBA)");
    case 0x0F: return QStringLiteral("W95 Extended (LBA)");
    case 0x82: return QStringLiteral("Linux swap");
    case 0x83: return QStringLiteral("Linux");
    case 0x85: return QStringLiteral("Linux extended");
    case 0x8E: return QStringLiteral("Linux LVM");
    case 0xA5: return QStringLiteral("FreeBSD");
    case 0xA8: return QStringLiteral("Darwin UFS");
    case 0xAF: return QStringLiteral("HFS / HFS+");
    case 0xEE: return QStringLiteral("GPT protective");
    case 0xEF: return QStringLiteral("EFI (FAT-12/16/32)");
    case 0xFD: return QStringLiteral("Linux raid autodetect");
    default: return QStringLiteral("unknown");
    }
}

QString guidText(const char *p)
{
    // Mixed endian: the first three fields little-endian, the rest as bytes.
    const auto b = reinterpret_cast<const uint8_t *>(p);
    return QStringLiteral("%1-%2-%3-%4-%5")
        .arg(le32(p), 8, 16, QLatin1Char('0'))
        .arg(uint16_t(b[4] | (b[5] << 8)), 4, 16, QLatin1Char('0'))
        .arg(uint16_t(b[6] | (b[7] << 8)), 4, 16, QLatin1Char('0'))
        .arg(QString::fromLatin1(QByteArray(p + 8, 2).toHex()))
        .arg(QString::fromLatin1(QByteArray(p + 10, 6).toHex()))
        .toUpper();
}

QString gptTypeName(const QString &guid)
{
    static const std::pair<const char *, const char *> known[] = {
        {"C12A7328-F81F-11D2-BA4B-00A0C93EC93B", "EFI System"},
        {"21686148-6449-6E6F-744E-656564454649", "BIOS boot"},
        {"0FC63DAF-8483-4772-8E79-3D69D8477DE4", "Linux filesystem"},
        {"4F68BCE3-E8CD-4DB1-96E7-FBCAF984B709", "Linux root (x86-64)"},
        {"933AC7E1-2EB4-4F13-B844-0E14E2AEF915", "Linux home"},
        {"0657FD6D-A4AB-43C4-84E5-0933C84B4F4F", "Linux swap"},
        {"E6D6D379-F507-44C2-A23C-238F2A3DF928", "Linux LVM"},
        {"A19D880F-05FC-4D3B-A006-743F0F84911E", "Linux RAID"},
        {"CA7D7CCB-63ED-4C53-861C-1742536059CC", "Linux LUKS"},
        {"7FFEC5C9-2D00-49B7-8941-3EA10A5586B7", "Linux dm-crypt"},
        {"BC13C2FF-59E6-4262-A352-B275FD6F7172", "Linux extended boot"},
        {"EBD0A0A2-B9E5-4433-87C0-68B6B72699C7", "Microsoft basic data"},
        {"E3C9E316-0B5C-4DB8-817D-F92DF00215AE", "Microsoft reserved"},
        {"DE94BBA4-06D1-4D40-A16A-BFD50179D6AC", "Windows recovery environment"},
        {"48465300-0000-11AA-AA11-00306543ECAC", "Apple HFS/HFS+"},
        {"7C3457EF-0000-11AA-AA11-00306543ECAC", "Apple APFS"},
        {"516E7CB6-6ECF-11D6-8FF8-00022D09712B", "FreeBSD UFS"},
    };
    for (const auto &[g, n] : known)
        if (guid == QLatin1String(g))
            return QString::fromLatin1(n);
    return QStringLiteral("unknown");
}

bool plausibleMbrEntry(const char *e)
{
    const uint8_t status = uint8_t(e[0]);
    return status == 0x00 || status == 0x80;
}

struct GptHeader {
    uint64_t entriesLba = 0;
    uint32_t entries = 0;
    uint32_t entrySize = 0;
    uint32_t entriesCrc = 0;
    uint64_t firstUsable = 0;
    uint64_t lastUsable = 0;
    QString diskGuid;
};

Result<GptHeader> readGptHeader(const ByteSource &disk, uint64_t at, uint32_t sector)
{
    char raw[512];
    if (auto read = disk.readExact(at, std::span(raw, sizeof raw)); !read)
        return std::move(read).error();
    if (std::memcmp(raw, "EFI PART", 8) != 0)
        return Error::format(disk.name(), at, QStringLiteral("no GPT header signature"));
    const uint32_t headerSize = le32(raw + 12);
    if (headerSize < 92 || headerSize > 512)
        return Error::format(disk.name(), at + 12, QStringLiteral("GPT header size %1 invalid").arg(headerSize));
    char copy[512];
    std::memcpy(copy, raw, headerSize);
    std::memset(copy + 16, 0, 4);
    if (crc32(0, reinterpret_cast<const Bytef *>(copy), headerSize) != le32(raw + 16))
        return Error::format(disk.name(), at + 16, QStringLiteral("GPT header CRC32 mismatch"));
    GptHeader h;
    h.firstUsable = le64(raw + 40);
    h.lastUsable = le64(raw + 48);
    h.diskGuid = guidText(raw + 56);
    h.entriesLba = le64(raw + 72);
    h.entries = le32(raw + 80);
    h.entrySize = le32(raw + 84);
    h.entriesCrc = le32(raw + 88);
    if (h.entries > kMaxGptEntries || h.entrySize < 128 || h.entrySize > 4096 || h.entrySize % 8)
        return Error::format(disk.name(), at + 80, QStringLiteral("GPT entry array of %1 x %2 bytes is implausible").arg(h.entries).arg(h.entrySize));
    if (h.entriesLba > disk.size() / sector)
        return Error::format(disk.name(), at + 72, QStringLiteral("GPT entry array lies beyond the disk"));
    return h;
}

Result<PartitionTable> readGpt(const ByteSource &disk, uint32_t sector)
{
    PartitionTable table;
    table.label = QStringLiteral("gpt");
    table.sectorSize = sector;
    auto header = readGptHeader(disk, sector, sector);
    QByteArray entries;
    auto loadEntries = [&](const GptHeader &h) -> Result<void> {
        entries = QByteArray(qsizetype(uint64_t(h.entries) * h.entrySize), Qt::Uninitialized);
        if (auto read = disk.readExact(h.entriesLba * sector, std::span(entries.data(), size_t(entries.size()))); !read)
            return read;
        if (crc32(0, reinterpret_cast<const Bytef *>(entries.constData()), uInt(entries.size())) != h.entriesCrc)
            return Error::format(disk.name(), h.entriesLba * sector, QStringLiteral("GPT partition entry array CRC32 mismatch"));
        return {};
    };
    Result<void> loaded = header ? loadEntries(*header) : Result<void>(header.error());
    if (!loaded) {
        // The primary copy is damaged: the backup header sits in the disk's last sector.
        const uint64_t backupAt = (disk.size() / sector - 1) * sector;
        auto backup = readGptHeader(disk, backupAt, sector);
        if (!backup)
            return loaded.error();
        if (auto fromBackup = loadEntries(*backup); !fromBackup)
            return fromBackup.error();
        table.warnings << QStringLiteral("primary GPT damaged (%1); using the backup header").arg(loaded.error().withoutFile());
        header = std::move(backup);
    }
    table.diskId = header->diskGuid;
    for (uint32_t i = 0; i < header->entries; ++i) {
        const char *e = entries.constData() + size_t(i) * header->entrySize;
        static const char zero[16] = {};
        if (std::memcmp(e, zero, 16) == 0)
            continue;
        const uint64_t first = le64(e + 32);
        const uint64_t last = le64(e + 40);
        if (last < first || last >= disk.size() / sector) {
            table.warnings << QStringLiteral("GPT entry %1 has an invalid range (%2..%3): skipped").arg(i + 1).arg(first).arg(last);
            continue;
        }
        Partition p;
        p.number = int(i + 1);
        p.start = first * sector;
        p.length = (last - first + 1) * sector;
        p.type = guidText(e);
        p.typeName = gptTypeName(p.type);
        p.guid = guidText(e + 16);
        p.name = QString::fromUtf16(reinterpret_cast<const char16_t *>(e + 56), 36).section(QChar(0), 0, 0);
        p.kind = QStringLiteral("gpt");
        table.partitions.push_back(p);
    }
    return table;
}

Result<PartitionTable> readMbr(const ByteSource &disk, const char *sector0)
{
    PartitionTable table;
    table.label = QStringLiteral("dos");
    table.diskId = QStringLiteral("0x%1").arg(le32(sector0 + 440), 8, 16, QLatin1Char('0'));
    const uint64_t diskSectors = disk.size() / 512;
    for (int slot = 0; slot < 4; ++slot) {
        const char *e = sector0 + 446 + slot * 16;
        const uint8_t type = uint8_t(e[4]);
        if (type == 0)
            continue;
        const uint64_t start = le32(e + 8);
        const uint64_t count = le32(e + 12);
        Partition p;
        p.number = slot + 1;
        p.start = start * 512;
        p.length = count * 512;
        p.type = QStringLiteral("0x%1").arg(type, 2, 16, QLatin1Char('0'));
        p.typeName = mbrTypeName(type);
        p.bootable = uint8_t(e[0]) == 0x80;
        p.kind = isExtended(type) ? QStringLiteral("extended") : QStringLiteral("primary");
        if (start + count > diskSectors)
            table.warnings << QStringLiteral("partition %1 extends past the end of the disk").arg(p.number);
        table.partitions.push_back(p);
        if (!isExtended(type))
            continue;
        // Logical partitions: a chain of EBRs, each relative to the extended partition's start.
        QSet<uint64_t> seen;
        uint64_t ebr = start;
        int number = 5;
        while (ebr && number < 5 + kMaxLogical) {
            if (seen.contains(ebr)) {
                table.warnings << QStringLiteral("extended partition chain loops at sector %1").arg(ebr);
                break;
            }
            seen.insert(ebr);
            char raw[512];
            if (!disk.readExact(ebr * 512, std::span(raw, sizeof raw)) || uint8_t(raw[510]) != 0x55 || uint8_t(raw[511]) != 0xAA) {
                table.warnings << QStringLiteral("broken extended boot record at sector %1").arg(ebr);
                break;
            }
            const char *logical = raw + 446;
            const char *next = raw + 462;
            if (uint8_t(logical[4]) != 0) {
                Partition l;
                l.number = number++;
                l.start = (ebr + le32(logical + 8)) * 512;
                l.length = uint64_t(le32(logical + 12)) * 512;
                const uint8_t ltype = uint8_t(logical[4]);
                l.type = QStringLiteral("0x%1").arg(ltype, 2, 16, QLatin1Char('0'));
                l.typeName = mbrTypeName(ltype);
                l.bootable = uint8_t(logical[0]) == 0x80;
                l.kind = QStringLiteral("logical");
                table.partitions.push_back(l);
            }
            ebr = uint8_t(next[4]) ? start + le32(next + 8) : 0;
        }
    }
    return table;
}

} // namespace

int probePartitionTable(std::span<const char> head)
{
    if (head.size() < 1024)
        return 0;
    // A hybrid ISO carries an MBR too; the ISO's own reader serves it better.
    const bool iso = head.size() > 32774 && std::memcmp(head.data() + 32769, "CD001", 5) == 0;
    if (std::memcmp(head.data() + 512, "EFI PART", 8) == 0 || (head.size() > 4096 + 8 && std::memcmp(head.data() + 4096, "EFI PART", 8) == 0))
        return iso ? 40 : 80;
    if (uint8_t(head[510]) != 0x55 || uint8_t(head[511]) != 0xAA)
        return 0;
    // A volume boot record (a FAT, NTFS or exFAT volume with no partition table: a floppy, a USB
    // stick formatted whole) ends in 0x55AA too; its jump and filesystem name say what it is.
    const bool jump = uint8_t(head[0]) == 0xEB || uint8_t(head[0]) == 0xE9;
    auto at = [&](size_t offset, const char *text) { return std::memcmp(head.data() + offset, text, std::strlen(text)) == 0; };
    if (jump && (at(54, "FAT12   ") || at(54, "FAT16   ") || at(54, "FAT     ") || at(82, "FAT32   ") || at(3, "NTFS    ") || at(3, "EXFAT   ")))
        return 0;
    int used = 0;
    for (int slot = 0; slot < 4; ++slot) {
        const char *e = head.data() + 446 + slot * 16;
        if (!plausibleMbrEntry(e))
            return 0; // a boot sector with code here, e.g. a FAT volume
        if (uint8_t(e[4]) != 0)
            ++used;
    }
    return used ? (iso ? 40 : 45) : 0;
}

Result<PartitionTable> readPartitionTable(const ByteSource &disk)
{
    char sector0[512];
    if (auto read = disk.readExact(0, std::span(sector0, sizeof sector0)); !read)
        return std::move(read).error();
    char probe[8];
    for (uint32_t sector : {512u, 4096u}) {
        if (disk.size() >= sector * 2 && disk.readExact(sector, std::span(probe, 8)) && std::memcmp(probe, "EFI PART", 8) == 0)
            return readGpt(disk, sector);
    }
    if (uint8_t(sector0[510]) != 0x55 || uint8_t(sector0[511]) != 0xAA)
        return Error::format(disk.name(), 510, QStringLiteral("no partition table (missing 0x55AA signature)"));
    return readMbr(disk, sector0);
}

QJsonObject PartitionTable::toJson() const
{
    QJsonObject o;
    o[QStringLiteral("format")] = label == QLatin1String("gpt") ? QStringLiteral("gpt") : QStringLiteral("mbr");
    o[QStringLiteral("label")] = label;
    o[QStringLiteral("id")] = diskId;
    o[QStringLiteral("sector_size")] = int(sectorSize);
    QJsonArray parts;
    for (const Partition &p : partitions) {
        QJsonObject j;
        j[QStringLiteral("name")] = QStringLiteral("p%1").arg(p.number);
        j[QStringLiteral("number")] = p.number;
        j[QStringLiteral("start")] = double(p.start);
        j[QStringLiteral("size")] = double(p.length);
        j[QStringLiteral("start_sector")] = double(p.start / sectorSize);
        j[QStringLiteral("sectors")] = double(p.length / sectorSize);
        j[QStringLiteral("type")] = p.type;
        j[QStringLiteral("type_name")] = p.typeName;
        j[QStringLiteral("kind")] = p.kind;
        if (p.bootable)
            j[QStringLiteral("bootable")] = true;
        if (!p.name.isEmpty())
            j[QStringLiteral("partition_name")] = p.name;
        if (!p.guid.isEmpty())
            j[QStringLiteral("guid")] = p.guid;
        parts.append(j);
    }
    o[QStringLiteral("partitions")] = parts;
    o[QStringLiteral("warnings")] = QJsonArray::fromStringList(warnings);
    return o;
}

} // namespace asc
