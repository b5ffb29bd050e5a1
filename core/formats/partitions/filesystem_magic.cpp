// SPDX-License-Identifier: MIT
#include "filesystem_magic.h"

#include "formats/archive/compression_magic.h"

#include <QByteArray>
#include <QtEndian>
#include <QStringList>
#include <array>
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
    // ZFS: the first vdev label's uberblock array starts 128 KiB in, each uberblock with its
    // magic, in the byte order of the machine that wrote it.
    if (source.size() >= 256 * 1024) {
        char magic[8];
        if (auto got = source.readAt(128 * 1024, std::span(magic, sizeof magic)); got && *got == sizeof magic) {
            uint64_t m;
            std::memcpy(&m, magic, sizeof m);
            if (m == 0x00bab10cull || m == qbswap(uint64_t(0x00bab10cull)))
                return QStringLiteral("ZFS member");
        }
    }
    // No signature, and bytes as even as random ones: a volume encrypted without a header
    // (VeraCrypt, TrueCrypt, plain dm-crypt), or noise. Never zeros, text or a filesystem.
    // A compressed stream or an archive is random past its header: its magic says what it is.
    const bool archiveMagic = hasCompressionMagic(QByteArrayView(head).first(std::min<qsizetype>(head.size(), 512))) || at(0, "PK\x03\x04") ||
                              at(0, "7z\xbc\xaf\x27\x1c") || at(0, "Rar!") || at(0, "MSCF") || at(0, "xar!") || at(0, "hsqs");
    if (head.size() >= 64 * 1024 && !archiveMagic) {
        std::array<uint32_t, 256> counts{};
        for (qsizetype i = 0; i < 64 * 1024; ++i)
            ++counts[uint8_t(head[i])];
        double chi = 0; // against 256 per value; random bytes give about 255 +- 23
        for (uint32_t c : counts)
            chi += (double(c) - 256.0) * (double(c) - 256.0) / 256.0;
        if (chi < 400)
            return QStringLiteral("encrypted or random data (VeraCrypt, plain dm-crypt?)");
    }
    return {};
}

bool filesystemNotRead(const QString &filesystem)
{
    static const QStringList notRead = {QStringLiteral("Linux swap"), QStringLiteral("BitLocker"), QStringLiteral("ZFS member"),
                                        QStringLiteral("encrypted or random data (VeraCrypt, plain dm-crypt?)")};
    return notRead.contains(filesystem);
}

} // namespace asc
