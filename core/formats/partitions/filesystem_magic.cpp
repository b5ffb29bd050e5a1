// SPDX-License-Identifier: MIT
#include "filesystem_magic.h"

#include <QByteArray>
#include <QtEndian>
#include <QStringList>
#include <cstring>

namespace asc {

static uint32_t le32(const char *p)
{
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

QString detectFilesystem(const ByteSource &source)
{
    QByteArray head(qsizetype(std::min<uint64_t>(source.size(), 70 * 1024)), Qt::Uninitialized);
    auto got = source.readAt(0, std::span(head.data(), size_t(head.size())));
    if (!got)
        return {};
    head.truncate(qsizetype(*got));
    auto at = [&](qsizetype offset, const char *magic) {
        const qsizetype n = qsizetype(std::strlen(magic));
        return head.size() >= offset + n && std::memcmp(head.constData() + offset, magic, size_t(n)) == 0;
    };
    if (head.size() >= 1024 + 100 && uint8_t(head[1080]) == 0x53 && uint8_t(head[1081]) == 0xEF) {
        const uint32_t compat = le32(head.constData() + 1024 + 92);
        const uint32_t incompat = le32(head.constData() + 1024 + 96);
        if (incompat & (0x40 | 0x80 | 0x200)) // extents, 64bit, flex_bg
            return QStringLiteral("ext4");
        return (compat & 0x4) ? QStringLiteral("ext3") : QStringLiteral("ext2");
    }
    if (at(3, "NTFS    "))
        return QStringLiteral("NTFS");
    if (at(3, "EXFAT   "))
        return QStringLiteral("exFAT");
    if (at(82, "FAT32   "))
        return QStringLiteral("FAT32");
    if (at(54, "FAT16   "))
        return QStringLiteral("FAT16");
    if (at(54, "FAT12   "))
        return QStringLiteral("FAT12");
    if (at(54, "FAT     "))
        return QStringLiteral("FAT");
    if (at(32769, "CD001"))
        return QStringLiteral("ISO 9660");
    if (at(0, "XFSB"))
        return QStringLiteral("XFS");
    if (at(65600, "_BHRfS_M"))
        return QStringLiteral("btrfs");
    if (at(1024, "H+") || at(1024, "HX"))
        return QStringLiteral("HFS+");
    // UFS1 (0x00011954) and UFS2 (0x19540119) superblock magic, 1372 bytes into the superblock (at 8
    // or 64 KiB), in either byte order (SPARC Solaris wrote big-endian ones).
    for (qsizetype super : {8192, 65536}) {
        if (head.size() < super + 1376)
            continue;
        const uint32_t magic = le32(head.constData() + super + 1372);
        for (uint32_t ufs : {0x00011954u, 0x19540119u})
            if (magic == ufs || magic == qbswap(ufs))
                return QStringLiteral("UFS");
    }
    for (qsizetype sector = 0; sector < 4; ++sector)
        if (at(sector * 512, "LABELONE"))
            return QStringLiteral("LVM physical volume");
    if (at(0, "LUKS\xba\xbe") && head.size() >= 8 && head[6] == 0 && (head[7] == 1 || head[7] == 2))
        return QStringLiteral("LUKS%1 encrypted volume").arg(int(head[7]));
    if (at(3, "-FVE-FS-"))
        return QStringLiteral("BitLocker");
    for (qsizetype page : {4096, 8192, 16384, 65536})
        if (at(page - 10, "SWAPSPACE2") || at(page - 10, "SWAP-SPACE"))
            return QStringLiteral("Linux swap");
    return {};
}

bool filesystemNotRead(const QString &filesystem)
{
    static const QStringList notRead = {QStringLiteral("Linux swap"), QStringLiteral("BitLocker")};
    return notRead.contains(filesystem);
}

} // namespace asc
