// SPDX-License-Identifier: MIT
#include "lvm_label.h"

#include "io/fuzzing.h"
#include "io/little_endian.h"

#include <cstring>
#include <zlib.h>

namespace asc::lvm {

namespace {

constexpr uint32_t kInitialCrc = 0xf597a6cf;
constexpr size_t kSector = 512;
constexpr size_t kMdaHeaderSize = 512;
constexpr char kMdaMagic[] = " LVM2 x[5A%r0N*>";
constexpr uint64_t kMaxMetadata = 64ull << 20; // lvm2's own ceiling is far below this
constexpr uint32_t kRawLocnIgnored = 1;

Result<QByteArray> readMetadataArea(const ByteSource &pv, uint64_t mdaOffset, uint64_t mdaSize, uint64_t &textOffset)
{
    char header[kMdaHeaderSize];
    if (auto read = pv.readExact(mdaOffset, std::span(header, sizeof header)); !read)
        return std::move(read).error();
    if (std::memcmp(header + 4, kMdaMagic, 16) != 0)
        return Error::format(pv.name(), mdaOffset, QStringLiteral("LVM metadata area has no LVM2 magic"));
    if (!kChecksumsAlwaysPass && lvmCrc(header + 4, kMdaHeaderSize - 4) != le32(header))
        return Error::make(ErrorKind::Checksum, pv.name(), QStringLiteral("LVM metadata area header fails its checksum"), mdaOffset);
    // The header's own size wins over the PV header's (they agree unless one is damaged; reads stay
    // bounded by the source and kMaxMetadata either way).
    if (const uint64_t size = le64(header + 32); size >= kMdaHeaderSize)
        mdaSize = size;
    if (mdaSize < kMdaHeaderSize)
        return Error::format(pv.name(), mdaOffset, QStringLiteral("LVM metadata area of %1 bytes is smaller than its header").arg(mdaSize));
    // The first raw location is the committed metadata (a second one is a precommit).
    const char *locn = header + 40;
    const uint64_t offset = le64(locn);
    const uint64_t length = le64(locn + 8);
    const uint32_t checksum = le32(locn + 16);
    const uint32_t flags = le32(locn + 20);
    if (offset == 0 || length == 0 || (flags & kRawLocnIgnored))
        return QByteArray();
    if (length > kMaxMetadata || offset >= mdaSize || length > mdaSize - kMdaHeaderSize)
        return Error::format(pv.name(), mdaOffset + 40, QStringLiteral("LVM metadata location (%1 bytes at %2) lies outside its %3-byte area").arg(length).arg(offset).arg(mdaSize));
    QByteArray text(qsizetype(length), Qt::Uninitialized);
    // The area is a ring: text running past its end continues after the header.
    const uint64_t first = std::min(length, mdaSize - offset);
    if (auto read = pv.readExact(mdaOffset + offset, std::span(text.data(), size_t(first))); !read)
        return std::move(read).error();
    if (first < length)
        if (auto read = pv.readExact(mdaOffset + kMdaHeaderSize, std::span(text.data() + first, size_t(length - first))); !read)
            return std::move(read).error();
    textOffset = mdaOffset + offset;
    if (!kChecksumsAlwaysPass && lvmCrc(text.constData(), size_t(text.size())) != checksum)
        return Error::make(ErrorKind::Checksum, pv.name(), QStringLiteral("LVM metadata text fails its checksum"), textOffset);
    return text;
}

} // namespace

uint32_t lvmCrc(const char *data, size_t size)
{
    // zlib inverts on the way in and out; LVM does neither.
    return ~uint32_t(crc32(~kInitialCrc & 0xffffffffu, reinterpret_cast<const Bytef *>(data), uInt(size)));
}

QByteArray dashedUuid(const QByteArray &uuid)
{
    if (uuid.size() != 32)
        return uuid;
    QByteArray out;
    int at = 0;
    for (int part : {6, 4, 4, 4, 4, 4, 6}) {
        if (at)
            out += '-';
        out += uuid.mid(at, part);
        at += part;
    }
    return out;
}

bool looksLikePhysicalVolume(std::span<const char> head)
{
    for (size_t sector = 0; sector < 4; ++sector) {
        const size_t at = sector * kSector;
        if (head.size() >= at + 32 && std::memcmp(head.data() + at, "LABELONE", 8) == 0 && std::memcmp(head.data() + at + 24, "LVM2 001", 8) == 0)
            return true;
    }
    return false;
}

Result<PhysicalVolumeLabel> readPhysicalVolume(const ByteSource &pv)
{
    char head[4 * kSector];
    if (auto read = pv.readExact(0, std::span(head, sizeof head)); !read)
        return std::move(read).error();
    const char *label = nullptr;
    uint64_t labelAt = 0;
    for (size_t sector = 0; sector < 4 && !label; ++sector) {
        const char *s = head + sector * kSector;
        if (std::memcmp(s, "LABELONE", 8) == 0) {
            label = s;
            labelAt = sector * kSector;
        }
    }
    if (!label)
        return Error::format(pv.name(), 0, QStringLiteral("no LVM label in the first four sectors"));
    if (!kChecksumsAlwaysPass && lvmCrc(label + 20, kSector - 20) != le32(label + 16))
        return Error::make(ErrorKind::Checksum, pv.name(), QStringLiteral("LVM label fails its checksum"), labelAt);
    if (std::memcmp(label + 24, "LVM2 001", 8) != 0)
        return Error::make(ErrorKind::Unsupported, pv.name(), QStringLiteral("LVM label of type '%1' (only LVM2 is read)").arg(QString::fromLatin1(label + 24, 8)), labelAt + 24);
    const uint32_t headerOffset = le32(label + 20);
    if (headerOffset < 32 || headerOffset + 40 > kSector)
        return Error::format(pv.name(), labelAt + 20, QStringLiteral("LVM PV header offset %1 is outside the label sector").arg(headerOffset));
    const char *p = label + headerOffset;
    const char *end = label + kSector;
    PhysicalVolumeLabel out;
    out.uuid = QByteArray(p, 32);
    out.deviceSize = le64(p + 32);
    p += 40;
    // Data areas, then metadata areas: each list ends with a zero entry.
    bool firstData = true;
    while (p + 16 <= end && le64(p) != 0) {
        if (firstData)
            out.dataStart = le64(p);
        firstData = false;
        p += 16;
    }
    p += 16;
    std::vector<std::pair<uint64_t, uint64_t>> areas;
    while (p + 16 <= end && le64(p) != 0) {
        areas.emplace_back(le64(p), le64(p + 8));
        p += 16;
    }
    std::optional<Error> firstError;
    for (const auto &[offset, size] : areas) {
        auto text = readMetadataArea(pv, offset, size, out.metadataOffset);
        if (text) {
            out.metadata = std::move(text).value();
            if (!out.metadata.isEmpty())
                return out;
        } else if (!firstError) {
            firstError = std::move(text).error();
        }
    }
    if (firstError)
        return std::move(*firstError);
    return out;
}

} // namespace asc::lvm
