// SPDX-License-Identifier: MIT
#include "luks_header.h"

#include "io/big_endian.h"

#include <QJsonDocument>
#include <algorithm>
#include <cstring>

namespace asc {

namespace {

constexpr char kMagic[] = "LUKS\xba\xbe";
constexpr size_t kLuks1HeaderBytes = 592;
constexpr uint32_t kLuks1SlotActive = 0x00AC71F3;
// LUKS2's JSON area is at most 4 MiB less its binary header. Its key slots area may be up to
// 128 MiB; cryptsetup makes 16 MiB of metadata in all, and what opens a key slot must fit one
// message to the worker's parent.
constexpr uint64_t kMaxJsonBytes = 4 << 20;
constexpr uint64_t kMaxMetadataBytes = 60 << 20;

QString fixedText(const char *p, size_t n)
{
    return QString::fromLatin1(p, qsizetype(strnlen(p, n)));
}

// "aes-xts-plain64" -> ("aes", "xts-plain64"); a kernel crypto API name ("capi:...") stays whole.
std::pair<QString, QString> splitEncryption(const QString &encryption)
{
    const qsizetype dash = encryption.indexOf(QLatin1Char('-'));
    if (dash < 0 || encryption.startsWith(QLatin1String("capi:")))
        return {encryption, QString()};
    return {encryption.left(dash), encryption.mid(dash + 1)};
}

Result<LuksHeader> readLuks1(const ByteSource &source, const char *h)
{
    LuksHeader header;
    header.version = 1;
    header.cipher = fixedText(h + 8, 32);
    header.mode = fixedText(h + 40, 32);
    header.dataOffset = uint64_t(be32(h + 104)) * 512;
    header.keyBytes = int(std::min<uint32_t>(be32(h + 108), 1u << 20));
    header.uuid = fixedText(h + 168, 40);
    const QString hash = fixedText(h + 72, 32);
    for (int slot = 0; slot < 8; ++slot) {
        const char *s = h + 208 + slot * 48;
        if (be32(s) != kLuks1SlotActive)
            continue;
        header.keySlots.append(QJsonObject{{QStringLiteral("slot"), slot}, {QStringLiteral("type"), QStringLiteral("luks1")}, {QStringLiteral("pbkdf"), QStringLiteral("pbkdf2-") + hash}, {QStringLiteral("iterations"), qint64(be32(s + 4))}, {QStringLiteral("key_bits"), header.keyBytes * 8}});
    }
    if (header.dataOffset < kLuks1HeaderBytes || header.dataOffset > source.size())
        return Error::format(source.name(), 104, QStringLiteral("LUKS1 header puts the encrypted data at %1, outside the volume of %2 bytes").arg(header.dataOffset).arg(source.size()));
    header.dataSize = source.size() - header.dataOffset;
    return header;
}

Result<uint64_t> jsonNumber(const QJsonValue &value, const QString &name, const QString &what)
{
    // LUKS2 writes 64-bit numbers as decimal strings (JSON numbers lose precision past 2^53).
    bool ok = false;
    const uint64_t n = value.isString() ? value.toString().toULongLong(&ok) : uint64_t(value.toInteger(-1));
    if (value.isString() ? !ok : value.toInteger(-1) < 0)
        return Error::format(name, 4096, QStringLiteral("LUKS2 metadata: %1 is not a number").arg(what));
    return n;
}

Result<LuksHeader> readLuks2(const ByteSource &source, const char *h)
{
    LuksHeader header;
    header.version = 2;
    header.label = fixedText(h + 24, 48);
    header.uuid = fixedText(h + 168, 40);
    const uint64_t hdrSize = be64(h + 8);
    if (hdrSize <= 4096 || hdrSize - 4096 > kMaxJsonBytes)
        return Error::format(source.name(), 8, QStringLiteral("LUKS2 header size %1 is not one LUKS2 allows").arg(hdrSize));
    QByteArray jsonBytes(qsizetype(hdrSize - 4096), Qt::Uninitialized);
    if (auto read = source.readExact(4096, std::span(jsonBytes.data(), size_t(jsonBytes.size()))); !read)
        return std::move(read).error();
    jsonBytes.truncate(qsizetype(strnlen(jsonBytes.constData(), size_t(jsonBytes.size()))));
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(jsonBytes, &parseError);
    if (!doc.isObject())
        return Error::format(source.name(), 4096 + uint64_t(parseError.offset), QStringLiteral("LUKS2 metadata is not JSON: %1").arg(parseError.errorString()));
    const QJsonObject root = doc.object();
    const QJsonObject mandatory = root.value(QStringLiteral("config")).toObject().value(QStringLiteral("requirements")).toObject();
    if (const QJsonArray needs = mandatory.value(QStringLiteral("mandatory")).toArray(); !needs.isEmpty()) {
        QStringList names;
        for (const QJsonValue &n : needs)
            names << n.toString();
        return Error::make(ErrorKind::Unsupported, source.name(), QStringLiteral("LUKS2 volume needs %1 (a reencryption was interrupted?), which ArchiveScope does not read").arg(names.join(QStringLiteral(", "))));
    }
    const QJsonObject segments = root.value(QStringLiteral("segments")).toObject();
    if (segments.size() != 1)
        return Error::make(ErrorKind::Unsupported, source.name(), QStringLiteral("LUKS2 volume has %1 data segments (one is read: a reencryption in progress is not)").arg(segments.size()));
    const QJsonObject segment = segments.begin().value().toObject();
    if (segment.value(QStringLiteral("type")).toString() != QLatin1String("crypt"))
        return Error::make(ErrorKind::Unsupported, source.name(), QStringLiteral("LUKS2 data segment of type '%1' is not read").arg(segment.value(QStringLiteral("type")).toString()));
    auto offset = jsonNumber(segment.value(QStringLiteral("offset")), source.name(), QStringLiteral("the data offset"));
    if (!offset)
        return std::move(offset).error();
    header.dataOffset = *offset;
    if (header.dataOffset < hdrSize || header.dataOffset > source.size())
        return Error::format(source.name(), 4096, QStringLiteral("LUKS2 metadata puts the encrypted data at %1, outside the volume of %2 bytes").arg(header.dataOffset).arg(source.size()));
    const QJsonValue size = segment.value(QStringLiteral("size"));
    header.dataSize = source.size() - header.dataOffset;
    if (size.toString() != QLatin1String("dynamic")) {
        auto fixed = jsonNumber(size, source.name(), QStringLiteral("the data size"));
        if (!fixed)
            return std::move(fixed).error();
        if (*fixed > header.dataSize)
            return Error::format(source.name(), 4096, QStringLiteral("LUKS2 data segment of %1 bytes runs past the end of the volume (%2 bytes after the header)").arg(*fixed).arg(header.dataSize));
        header.dataSize = *fixed;
    }
    std::tie(header.cipher, header.mode) = splitEncryption(segment.value(QStringLiteral("encryption")).toString());
    header.sectorSize = segment.value(QStringLiteral("sector_size")).toInt(512);
    if (segment.contains(QStringLiteral("integrity")))
        header.integrity = segment.value(QStringLiteral("integrity")).toObject().value(QStringLiteral("type")).toString();
    if (auto tweak = jsonNumber(segment.value(QStringLiteral("iv_tweak")).isUndefined() ? QJsonValue(QStringLiteral("0")) : segment.value(QStringLiteral("iv_tweak")), source.name(), QStringLiteral("iv_tweak")); !tweak || *tweak != 0)
        return Error::make(ErrorKind::Unsupported, source.name(), QStringLiteral("LUKS2 data segment with an IV offset is not read"));
    const QJsonObject slots = root.value(QStringLiteral("keyslots")).toObject();
    for (auto it = slots.begin(); it != slots.end(); ++it) {
        const QJsonObject slot = it.value().toObject();
        const QJsonObject kdf = slot.value(QStringLiteral("kdf")).toObject();
        QJsonObject described{{QStringLiteral("slot"), it.key().toInt()}, {QStringLiteral("type"), slot.value(QStringLiteral("type"))}, {QStringLiteral("pbkdf"), kdf.value(QStringLiteral("type"))}, {QStringLiteral("key_bits"), slot.value(QStringLiteral("key_size")).toInt() * 8}};
        for (const char *field : {"time", "memory", "cpus", "iterations"})
            if (kdf.contains(QLatin1String(field)))
                described[QLatin1String(field)] = kdf.value(QLatin1String(field));
        header.keySlots.append(described);
        header.keyBytes = std::max(header.keyBytes, std::clamp(slot.value(QStringLiteral("key_size")).toInt(), 0, 1 << 20));
    }
    return header;
}

} // namespace

bool looksLikeLuks(std::span<const char> head)
{
    return head.size() >= 8 && std::memcmp(head.data(), kMagic, 6) == 0 && (be16(head.data() + 6) == 1 || be16(head.data() + 6) == 2);
}

Result<LuksHeader> readLuksHeader(const ByteSource &source)
{
    char h[4096];
    if (source.size() < sizeof h)
        return Error::format(source.name(), source.size(), QStringLiteral("LUKS header cut short: the volume is %1 bytes").arg(source.size()));
    if (auto read = source.readExact(0, std::span(h, sizeof h)); !read)
        return std::move(read).error();
    if (std::memcmp(h, kMagic, 6) != 0)
        return Error::format(source.name(), 0, QStringLiteral("not a LUKS header"));
    const uint16_t version = be16(h + 6);
    auto header = version == 1   ? readLuks1(source, h)
                  : version == 2 ? readLuks2(source, h)
                                 : Result<LuksHeader>(Error::make(ErrorKind::Unsupported, source.name(), QStringLiteral("LUKS version %1 is not read").arg(version), 6));
    if (!header)
        return header;
    if (header->metadataBytes() > kMaxMetadataBytes)
        return Error::format(source.name(), 0, QStringLiteral("LUKS metadata of %1 bytes (headers and key slots before the data) is more than ArchiveScope reads (60 MiB)").arg(header->metadataBytes()));
    // cryptsetup's keys are at most 512 bits per cipher, two for XTS: 1024 bits. A forged size
    // would otherwise be an allocation of that many bytes.
    if (header->keyBytes <= 0 || header->keyBytes > 128)
        return Error::format(source.name(), header->version == 1 ? std::optional<uint64_t>(108) : std::optional<uint64_t>(4096),
                             QStringLiteral("LUKS volume key of %1 bytes is not one LUKS allows").arg(header->keyBytes));
    const int sector = header->sectorSize;
    if (sector < 512 || sector > 4096 || (sector & (sector - 1)) != 0 || header->dataOffset % 512 != 0)
        return Error::format(source.name(), 0, QStringLiteral("LUKS sector size %1 or data offset %2 is not one LUKS allows").arg(sector).arg(header->dataOffset));
    header->dataSize -= header->dataSize % uint64_t(sector); // a partial last sector cannot be decrypted
    return header;
}

QJsonObject LuksHeader::toJson() const
{
    QJsonObject o{{QStringLiteral("format"), QStringLiteral("luks")},
                  {QStringLiteral("version"), version},
                  {QStringLiteral("uuid"), uuid},
                  {QStringLiteral("cipher"), mode.isEmpty() ? cipher : cipher + QLatin1Char('-') + mode},
                  {QStringLiteral("key_bits"), keyBytes * 8},
                  {QStringLiteral("sector_size"), sectorSize},
                  {QStringLiteral("data_offset"), qint64(dataOffset)},
                  {QStringLiteral("data_bytes"), qint64(dataSize)},
                  {QStringLiteral("key_slots"), keySlots}};
    if (!label.isEmpty())
        o[QStringLiteral("label")] = label;
    if (!integrity.isEmpty())
        o[QStringLiteral("integrity")] = integrity;
    return o;
}

} // namespace asc
