// SPDX-License-Identifier: MIT
#include "qcow2_header.h"

#include <QJsonArray>

namespace asc {

namespace {

uint64_t be64(const char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
        v = (v << 8) | uint8_t(p[i]);
    return v;
}
uint32_t be32(const char *p)
{
    return (uint32_t(uint8_t(p[0])) << 24) | (uint32_t(uint8_t(p[1])) << 16) | (uint32_t(uint8_t(p[2])) << 8) | uint8_t(p[3]);
}
uint16_t be16(const char *p)
{
    return uint16_t((uint8_t(p[0]) << 8) | uint8_t(p[1]));
}

constexpr uint64_t kOffsetMask = 0x00FFFFFFFFFFFE00ULL;
constexpr uint64_t kMaxL1Bytes = 32ULL << 20; // qemu: "Active L1 table too large"
constexpr uint64_t kMaxSnapshotTable = 64ULL << 20;
constexpr uint32_t kMaxSnapshots = 65536;

const char *kIncompatibleNames[] = {"dirty", "corrupt", "external data file", "compression type", "extended L2 entries"};

} // namespace

bool looksLikeQcow2(std::span<const char> head)
{
    return head.size() >= 8 && head[0] == 'Q' && head[1] == 'F' && head[2] == 'I' && uint8_t(head[3]) == 0xFB;
}

static Result<void> parseExtensions(const ByteSource &file, Qcow2Header &h, const QByteArray &cluster)
{
    const QString name = file.name();
    // Extensions live in the first cluster, before the backing name if there is one.
    uint64_t end = h.clusterSize();
    if (h.backingFileOffset && h.backingFileOffset < end)
        end = h.backingFileOffset;
    end = std::min<uint64_t>(end, uint64_t(cluster.size()));
    uint64_t at = h.headerLength;
    for (int count = 0; at + 8 <= end; ++count) {
        if (count > 1024)
            return Error::format(name, at, QStringLiteral("too many header extensions"));
        const uint32_t type = be32(cluster.constData() + at);
        const uint32_t length = be32(cluster.constData() + at + 4);
        if (type == 0)
            return {};
        const uint64_t dataAt = at + 8;
        if (uint64_t(length) > end - dataAt)
            return Error::format(name, at, QStringLiteral("header extension 0x%1 too large (%2 bytes)").arg(type, 8, 16, QLatin1Char('0')).arg(length));
        const char *data = cluster.constData() + dataAt;
        switch (type) {
        case 0xE2792ACA:
            h.backingFormat = QString::fromUtf8(data, qsizetype(length));
            break;
        case 0x44415441:
            h.externalDataFile = QString::fromUtf8(data, qsizetype(length));
            break;
        case 0x0537BE77:
            h.hasEncryptionHeader = true;
            break;
        case 0x6803F857:
            for (uint32_t i = 0; i + 48 <= length; i += 48) {
                const int kind = uint8_t(data[i]);
                const int bit = uint8_t(data[i + 1]);
                if (kind <= 2) {
                    const QByteArray raw(data + i + 2, 46);
                    h.featureNames[kind].push_back({bit, QString::fromUtf8(raw.left(raw.indexOf('\0') < 0 ? 46 : raw.indexOf('\0')))});
                }
            }
            break;
        default:
            break; // bitmaps and unknown extensions do not matter for reading
        }
        at = dataAt + ((uint64_t(length) + 7) & ~uint64_t(7));
    }
    return {};
}

static Result<void> parseSnapshots(const ByteSource &file, Qcow2Header &h)
{
    const QString name = file.name();
    if (h.nbSnapshots == 0)
        return {};
    if (h.nbSnapshots > kMaxSnapshots)
        return Error::format(name, 60, QStringLiteral("too many snapshots (%1)").arg(h.nbSnapshots));
    if (h.snapshotsOffset % h.clusterSize() || h.snapshotsOffset >= file.size())
        return Error::format(name, 64, QStringLiteral("snapshot table offset %1 invalid").arg(h.snapshotsOffset));
    const uint64_t available = std::min<uint64_t>(file.size() - h.snapshotsOffset, kMaxSnapshotTable);
    QByteArray table(qsizetype(available), Qt::Uninitialized);
    auto got = file.readAt(h.snapshotsOffset, std::span(table.data(), size_t(table.size())));
    if (!got)
        return std::move(got).error();
    table.truncate(qsizetype(*got));
    uint64_t at = 0;
    for (uint32_t i = 0; i < h.nbSnapshots; ++i) {
        if (at + 40 > uint64_t(table.size()))
            return Error::format(name, h.snapshotsOffset + at, QStringLiteral("snapshot table truncated at entry %1").arg(i));
        const char *p = table.constData() + at;
        Qcow2Snapshot s;
        s.l1Offset = be64(p);
        s.l1Size = be32(p + 8);
        const uint16_t idLength = be16(p + 12);
        const uint16_t nameLength = be16(p + 14);
        s.dateSeconds = be32(p + 16);
        s.dateNanoseconds = be32(p + 20);
        s.vmClockNanoseconds = be64(p + 24);
        s.vmStateSize = be32(p + 32);
        const uint32_t extra = be32(p + 36);
        if (extra > 1024)
            return Error::format(name, h.snapshotsOffset + at + 36, QStringLiteral("snapshot extra data too large (%1 bytes)").arg(extra));
        const uint64_t total = 40ULL + extra + idLength + nameLength;
        if (at + total > uint64_t(table.size()))
            return Error::format(name, h.snapshotsOffset + at, QStringLiteral("snapshot entry %1 runs past the table").arg(i));
        if (extra >= 8)
            s.vmStateSize = be64(p + 40);
        if (extra >= 16)
            s.diskSize = be64(p + 48);
        s.id = QString::fromUtf8(p + 40 + extra, idLength);
        s.name = QString::fromUtf8(p + 40 + extra + idLength, nameLength);
        h.snapshots.push_back(s);
        at += (total + 7) & ~uint64_t(7);
    }
    return {};
}

Result<Qcow2Header> parseQcow2Header(const ByteSource &file)
{
    const QString name = file.name();
    char raw[112] = {};
    auto got = file.readAt(0, std::span(raw, sizeof raw));
    if (!got)
        return std::move(got).error();
    if (*got < 72 || !looksLikeQcow2(std::span<const char>(raw, *got)))
        return Error::format(name, 0, QStringLiteral("not a qcow2 image (bad magic or truncated header)"));
    Qcow2Header h;
    h.version = be32(raw + 4);
    if (h.version != 2 && h.version != 3)
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("unsupported qcow2 version %1").arg(h.version), 4);
    h.backingFileOffset = be64(raw + 8);
    h.backingFileSize = be32(raw + 16);
    h.clusterBits = be32(raw + 20);
    h.size = be64(raw + 24);
    h.cryptMethod = be32(raw + 32);
    h.l1Size = be32(raw + 36);
    h.l1TableOffset = be64(raw + 40);
    h.refcountTableOffset = be64(raw + 48);
    h.refcountTableClusters = be32(raw + 56);
    h.nbSnapshots = be32(raw + 60);
    h.snapshotsOffset = be64(raw + 64);
    if (h.clusterBits < 9 || h.clusterBits > 21)
        return Error::format(name, 20, QStringLiteral("unsupported cluster size: 2^%1 (qcow2 allows 2^9 to 2^21)").arg(h.clusterBits));
    if (h.version == 3) {
        if (*got < 104)
            return Error::format(name, 72, QStringLiteral("qcow2 v3 header truncated"));
        h.incompatibleFeatures = be64(raw + 72);
        h.compatibleFeatures = be64(raw + 80);
        h.autoclearFeatures = be64(raw + 88);
        h.refcountOrder = be32(raw + 96);
        h.headerLength = be32(raw + 100);
        if (h.headerLength < 104)
            return Error::format(name, 100, QStringLiteral("qcow2 header too short (%1 bytes)").arg(h.headerLength));
        if (h.headerLength > h.clusterSize())
            return Error::format(name, 100, QStringLiteral("qcow2 header exceeds cluster size"));
        if (h.headerLength % 8)
            return Error::format(name, 100, QStringLiteral("qcow2 header length %1 is not a multiple of 8").arg(h.headerLength));
        if (h.headerLength > 104 && *got > 104)
            h.compressionType = uint8_t(raw[104]);
    }
    if (h.refcountOrder > 6)
        return Error::format(name, 96, QStringLiteral("reference count entry width too large; may not exceed 64 bits"));
    if (h.extendedL2() && h.clusterBits < 14)
        return Error::format(name, 20, QStringLiteral("extended L2 entries need clusters of at least 16 KiB"));

    // What we refuse, with the reason in words.
    if (h.cryptMethod == 1)
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("encrypted image (legacy AES-CBC): ArchiveScope does not decrypt qcow2 images"), 32);
    if (h.cryptMethod == 2)
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("encrypted image (LUKS): ArchiveScope does not decrypt qcow2 images"), 32);
    if (h.cryptMethod != 0)
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("unknown encryption method %1").arg(h.cryptMethod), 32);
    QByteArray cluster(qsizetype(std::min<uint64_t>(h.clusterSize(), file.size())), Qt::Uninitialized);
    auto first = file.readAt(0, std::span(cluster.data(), size_t(cluster.size())));
    if (!first)
        return std::move(first).error();
    cluster.truncate(qsizetype(*first));
    if (auto ext = parseExtensions(file, h, cluster); !ext)
        return std::move(ext).error();
    const uint64_t known = 0x1F;
    if (h.incompatibleFeatures & ~known) {
        QStringList bits;
        for (int bit = 5; bit < 64; ++bit) {
            if (!(h.incompatibleFeatures & (1ULL << bit)))
                continue;
            QString label = QStringLiteral("bit %1").arg(bit);
            for (const auto &[b, n] : h.featureNames[0])
                if (b == bit)
                    label = n;
            bits << label;
        }
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("unsupported qcow2 feature(s): %1").arg(bits.join(QStringLiteral(", "))), 72);
    }
    if (h.incompatibleFeatures & (1ULL << 2))
        return Error::make(ErrorKind::Unsupported, name,
                           QStringLiteral("image keeps its data in an external data file ('%1'): not supported").arg(h.externalDataFile), 72);
    if ((h.incompatibleFeatures & (1ULL << 3)) && h.compressionType == 0)
        return Error::format(name, 104, QStringLiteral("compression-type feature set but compression type is zlib"));
    if (h.compressionType > 1)
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("unknown compression type %1").arg(h.compressionType), 104);
    if (h.hasEncryptionHeader)
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("encrypted image (LUKS header extension present)"), 72);

    // Tables: aligned, inside the file, bounded.
    if (h.l1TableOffset % h.clusterSize())
        return Error::format(name, 40, QStringLiteral("active L1 table offset %1 is not cluster aligned").arg(h.l1TableOffset));
    if (uint64_t(h.l1Size) * 8 > kMaxL1Bytes)
        return Error::format(name, 36, QStringLiteral("active L1 table too large (%1 entries)").arg(h.l1Size));
    const uint64_t perL2 = h.clusterSize() * h.l2Entries();
    const uint64_t neededL1 = h.size / perL2 + (h.size % perL2 ? 1 : 0);
    if (neededL1 > h.l1Size)
        return Error::format(name, 36, QStringLiteral("L1 table (%1 entries) too small for a %2-byte disk").arg(h.l1Size).arg(h.size));
    if (h.l1Size && (h.l1TableOffset >= file.size() || uint64_t(h.l1Size) * 8 > file.size() - h.l1TableOffset))
        return Error::format(name, 40, QStringLiteral("active L1 table (%1 bytes at %2) lies beyond the end of the file").arg(uint64_t(h.l1Size) * 8).arg(h.l1TableOffset));
    if (h.backingFileOffset) {
        if (h.backingFileSize > 1023)
            return Error::format(name, 16, QStringLiteral("backing file name too long (%1 bytes)").arg(h.backingFileSize));
        if (h.backingFileOffset >= h.clusterSize() || h.backingFileOffset + h.backingFileSize > h.clusterSize())
            return Error::format(name, 8, QStringLiteral("invalid backing file offset %1").arg(h.backingFileOffset));
        h.backingFile = cluster.mid(qsizetype(h.backingFileOffset), qsizetype(h.backingFileSize));
        if (h.backingFile.size() != qsizetype(h.backingFileSize))
            return Error::format(name, h.backingFileOffset, QStringLiteral("backing file name truncated"));
    }
    if (auto snaps = parseSnapshots(file, h); !snaps)
        return std::move(snaps).error();
    return h;
}

QJsonObject Qcow2Header::toJson() const
{
    QJsonObject o;
    o[QStringLiteral("version")] = int(version);
    o[QStringLiteral("compat")] = version == 2 ? QStringLiteral("0.10") : QStringLiteral("1.1");
    o[QStringLiteral("virtual_size")] = double(size);
    o[QStringLiteral("cluster_size")] = double(clusterSize());
    o[QStringLiteral("cluster_bits")] = int(clusterBits);
    o[QStringLiteral("l1_size")] = double(l1Size);
    o[QStringLiteral("l1_table_offset")] = double(l1TableOffset);
    o[QStringLiteral("refcount_table_offset")] = double(refcountTableOffset);
    o[QStringLiteral("refcount_table_clusters")] = double(refcountTableClusters);
    o[QStringLiteral("refcount_bits")] = 1 << refcountOrder;
    o[QStringLiteral("header_length")] = int(headerLength);
    o[QStringLiteral("compression_type")] = compressionType == 1 ? QStringLiteral("zstd") : QStringLiteral("zlib");
    o[QStringLiteral("extended_l2")] = extendedL2();
    o[QStringLiteral("dirty")] = dirty();
    o[QStringLiteral("corrupt")] = corrupt();
    o[QStringLiteral("lazy_refcounts")] = bool(compatibleFeatures & 1);
    o[QStringLiteral("incompatible_features")] = double(incompatibleFeatures);
    o[QStringLiteral("compatible_features")] = double(compatibleFeatures);
    o[QStringLiteral("autoclear_features")] = double(autoclearFeatures);
    QJsonArray incompatible;
    for (int bit = 0; bit < 5; ++bit)
        if (incompatibleFeatures & (1ULL << bit))
            incompatible.append(QString::fromLatin1(kIncompatibleNames[bit]));
    o[QStringLiteral("incompatible_feature_names")] = incompatible;
    QJsonArray table;
    static const char *kinds[] = {"incompatible", "compatible", "autoclear"};
    for (int kind = 0; kind < 3; ++kind)
        for (const auto &[bit, label] : featureNames[kind])
            table.append(QJsonObject{{QStringLiteral("type"), QString::fromLatin1(kinds[kind])}, {QStringLiteral("bit"), bit}, {QStringLiteral("name"), label}});
    o[QStringLiteral("feature_name_table")] = table;
    if (!backingFile.isEmpty()) {
        o[QStringLiteral("backing_file")] = QString::fromUtf8(backingFile);
        o[QStringLiteral("backing_format")] = backingFormat;
    }
    QJsonArray snaps;
    for (const Qcow2Snapshot &s : snapshots)
        snaps.append(QJsonObject{{QStringLiteral("id"), s.id}, {QStringLiteral("name"), s.name}, {QStringLiteral("date_sec"), double(s.dateSeconds)}, {QStringLiteral("date_nsec"), double(s.dateNanoseconds)}, {QStringLiteral("vm_clock_nsec"), double(s.vmClockNanoseconds)}, {QStringLiteral("vm_state_size"), double(s.vmStateSize)}, {QStringLiteral("disk_size"), double(s.diskSize ? s.diskSize : size)}, {QStringLiteral("l1_table_offset"), double(s.l1Offset)}, {QStringLiteral("l1_size"), double(s.l1Size)}});
    o[QStringLiteral("snapshots")] = snaps;
    return o;
}

} // namespace asc
