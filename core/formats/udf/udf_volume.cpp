// SPDX-License-Identifier: MIT
#include "udf_volume.h"

#include "io/little_endian.h"
#include "io/memory_source.h"

#include <QString>
#include <algorithm>
#include <cstring>

namespace asc::udf {

namespace {

enum TagId : uint16_t {
    kPrimaryVolume = 1,
    kAnchor = 2,
    kPartition = 5,
    kLogicalVolume = 6,
    kTerminating = 8,
    kFileSet = 256,
    kFileIdentifier = 257,
    kAllocationExtent = 258,
    kFileEntry = 261,
    kExtendedFileEntry = 266,
};

constexpr uint32_t kMaxDescriptorBlocks = 4096; // a volume descriptor sequence
constexpr uint64_t kMaxDirectory = uint64_t(64) << 20; // a folder of ~500,000 names
constexpr uint64_t kMaxSymlink = 64 << 10;
constexpr uint32_t kMaxExtents = 1 << 20; // allocation descriptors of one file
constexpr uint32_t kMaxContinuations = 4096;

bool tagChecksumOk(const char *tag)
{
    uint8_t sum = 0;
    for (int i = 0; i < 16; ++i) {
        if (i != 4)
            sum = uint8_t(sum + uint8_t(tag[i]));
    }
    return sum == uint8_t(tag[4]);
}

// OSTA CS0: a compression id (8: one byte a character, 16: UTF-16BE) then the characters.
QByteArray cs0(const char *p, size_t n)
{
    if (n < 1)
        return {};
    const uint8_t id = uint8_t(p[0]);
    if (id == 8 || id == 254) {
        return QString::fromLatin1(p + 1, qsizetype(n - 1)).toUtf8();
    }
    if (id == 16 || id == 255) {
        QString s;
        for (size_t i = 1; i + 1 < n; i += 2)
            s.append(QChar(char16_t(uint8_t(p[i]) << 8 | uint8_t(p[i + 1]))));
        return s.toUtf8();
    }
    return {};
}

// A dstring: CS0 bytes whose last byte says how many are used.
QByteArray dstring(const char *p, size_t field)
{
    if (field < 2)
        return {};
    const size_t used = std::min<size_t>(uint8_t(p[field - 1]), field - 1);
    return cs0(p, used);
}

int64_t daysFromCivil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = unsigned(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + int64_t(doe) - 719468;
}

// ECMA-167 1/7.3 timestamp: local time with its offset from UTC in minutes.
void timestamp(const char *p, int64_t &seconds, uint32_t &nsec)
{
    const uint16_t typeAndZone = le16(p);
    int zone = typeAndZone & 0x0FFF;
    if (zone & 0x0800)
        zone -= 0x1000;
    if ((typeAndZone >> 12) != 1 || zone == -2047)
        zone = 0;
    const int year = int16_t(le16(p + 2));
    const unsigned month = std::clamp<unsigned>(uint8_t(p[4]), 1, 12), day = std::clamp<unsigned>(uint8_t(p[5]), 1, 31);
    seconds = daysFromCivil(year, month, day) * 86400 + int64_t(uint8_t(p[6])) * 3600 + int64_t(uint8_t(p[7])) * 60 + uint8_t(p[8]) - int64_t(zone) * 60;
    nsec = uint32_t(uint8_t(p[9]) % 100) * 10'000'000 + uint32_t(uint8_t(p[10]) % 100) * 100'000 + uint32_t(uint8_t(p[11]) % 100) * 1'000;
}

uint32_t unixMode(uint32_t udf, uint16_t icbFlags)
{
    uint32_t mode = ((udf >> 10) & 7) << 6 | ((udf >> 5) & 7) << 3 | (udf & 7);
    if (icbFlags & 0x40)
        mode |= 04000;
    if (icbFlags & 0x80)
        mode |= 02000;
    if (icbFlags & 0x100)
        mode |= 01000;
    return mode;
}

} // namespace

bool hasUdfRecognition(std::span<const char> head)
{
    for (size_t stride : {size_t(2048), size_t(4096), size_t(512)}) {
        bool inExtended = false;
        for (size_t at = 32768; at + 6 <= head.size(); at += std::max<size_t>(stride, 2048)) {
            const char *id = head.data() + at + 1;
            if (std::memcmp(id, "BEA01", 5) == 0)
                inExtended = true;
            else if (inExtended && (std::memcmp(id, "NSR02", 5) == 0 || std::memcmp(id, "NSR03", 5) == 0))
                return true;
            else if (std::memcmp(id, "TEA01", 5) == 0)
                break;
            else if (std::memcmp(id, "CD001", 5) != 0 && std::memcmp(id, "BOOT2", 5) != 0 && std::memcmp(id, "CDW02", 5) != 0)
                break;
        }
    }
    return false;
}

Result<QByteArray> Volume::readBlocks(uint64_t absoluteBlock, uint32_t count) const
{
    const uint64_t at = absoluteBlock * blockSize_, bytes = uint64_t(count) * blockSize_;
    if (at > source_->size() || bytes > source_->size() - at)
        return Error::format(source_->name(), at, QStringLiteral("UDF: block %1 lies past the end of the image").arg(absoluteBlock));
    QByteArray out(qsizetype(bytes), Qt::Uninitialized);
    auto got = source_->readAt(at, std::span(out.data(), size_t(bytes)));
    if (!got)
        return std::move(got).error();
    if (*got != bytes)
        return Error::format(source_->name(), at, QStringLiteral("UDF: the image ends inside block %1").arg(absoluteBlock));
    return out;
}

Result<QByteArray> Volume::descriptor(uint64_t absoluteBlock, uint16_t id, uint32_t bytes, uint32_t taggedLocation) const
{
    auto data = readBlocks(absoluteBlock, std::max<uint32_t>(1, (bytes + blockSize_ - 1) / blockSize_));
    if (!data)
        return data;
    const char *tag = data->constData();
    const uint64_t at = absoluteBlock * blockSize_;
    if (!tagChecksumOk(tag))
        return Error::format(source_->name(), at, QStringLiteral("UDF: the descriptor tag's checksum does not match (a damaged descriptor)"));
    if (le16(tag) != id)
        return Error::format(source_->name(), at, QStringLiteral("UDF: descriptor %1 found where %2 was expected").arg(le16(tag)).arg(id));
    if (le32(tag + 12) != taggedLocation)
        return Error::format(source_->name(), at, QStringLiteral("UDF: the descriptor says it lies at block %1, not %2").arg(le32(tag + 12)).arg(taggedLocation));
    return data;
}

Result<std::vector<BlockRun>> Volume::place(uint16_t map, uint32_t block, uint64_t count, uint64_t logical) const
{
    if (map >= maps_.size())
        return Error::format(source_->name(), std::nullopt, QStringLiteral("UDF: partition reference %1 names no partition map").arg(map));
    const Map &m = maps_[map];
    std::vector<BlockRun> runs;
    if (m.kind == Map::Kind::Physical) {
        const Partition &p = partitions_[size_t(m.physical)];
        if (uint64_t(block) + count > p.length)
            return Error::format(source_->name(), std::nullopt, QStringLiteral("UDF: blocks %1+%2 lie outside partition %3 (%4 blocks)").arg(block).arg(count).arg(p.number).arg(p.length));
        runs.push_back({logical, uint64_t(p.start) + block, count, false});
        return runs;
    }
    // A metadata partition's block b is block b of its metadata file.
    uint64_t want = block, left = count;
    auto it = std::upper_bound(m.metadataRuns.begin(), m.metadataRuns.end(), want, [](uint64_t b, const BlockRun &r) { return b < r.logical; });
    if (it == m.metadataRuns.begin())
        return Error::format(source_->name(), std::nullopt, QStringLiteral("UDF: block %1 lies outside the metadata partition").arg(block));
    for (--it; left > 0; ++it) {
        if (it == m.metadataRuns.end() || want < it->logical || want >= it->logical + it->count || it->zeros)
            return Error::format(source_->name(), std::nullopt, QStringLiteral("UDF: block %1 lies outside the metadata partition").arg(want));
        const uint64_t n = std::min(left, it->logical + it->count - want);
        runs.push_back({logical + (want - block), it->physical + (want - it->logical), n, false});
        want += n;
        left -= n;
    }
    return runs;
}

Result<Node> Volume::readEntry(Address at, const std::vector<BlockRun> *metadataFile) const
{
    uint64_t absolute = 0;
    if (metadataFile) { // the metadata file itself: in its physical partition
        absolute = at.block;
    } else {
        auto where = place(at.partition, at.block, 1, 0);
        if (!where)
            return std::move(where).error();
        absolute = where->front().physical;
    }
    auto block = readBlocks(absolute, 1);
    if (!block)
        return std::move(block).error();
    const char *e = block->constData();
    const uint64_t offset = absolute * blockSize_;
    const uint16_t id = le16(e);
    if (!tagChecksumOk(e) || (id != kFileEntry && id != kExtendedFileEntry))
        return Error::format(source_->name(), offset, QStringLiteral("UDF: no file entry at block %1 of partition %2").arg(at.block).arg(at.partition));
    const bool extended = id == kExtendedFileEntry;
    Node node;
    node.fileType = uint8_t(e[16 + 11]);
    const uint16_t flags = le16(e + 16 + 18);
    node.uid = le32(e + 36) == 0xFFFFFFFF ? 0 : le32(e + 36);
    node.gid = le32(e + 40) == 0xFFFFFFFF ? 0 : le32(e + 40);
    node.permissions = unixMode(le32(e + 44), flags);
    node.links = le16(e + 48);
    node.size = le64(e + 56);
    timestamp(e + (extended ? 92 : 84), node.mtime, node.mtimeNsec);
    const uint32_t eaLength = le32(e + (extended ? 208 : 168)), adLength = le32(e + (extended ? 212 : 172));
    const uint32_t base = extended ? 216 : 176;
    if (uint64_t(base) + eaLength + adLength > blockSize_)
        return Error::format(source_->name(), offset, QStringLiteral("UDF: the file entry's descriptors run past its block"));
    const uint8_t adType = flags & 7;
    if (adType == 3) {
        if (node.size > adLength)
            return Error::format(source_->name(), offset, QStringLiteral("UDF: an embedded file of %1 bytes holds %2").arg(node.size).arg(adLength));
        node.isEmbedded = true;
        node.embedded = QByteArray(e + base + eaLength, qsizetype(node.size));
        return node;
    }
    if (adType > 2)
        return Error::format(source_->name(), offset, QStringLiteral("UDF: allocation descriptor type %1 is not defined").arg(adType));
    const uint32_t adSize = adType == 0 ? 8 : adType == 1 ? 16
                                                          : 20;
    QByteArray ads(e + base + eaLength, qsizetype(adLength));
    uint16_t adPartition = at.partition;
    uint64_t logical = 0;
    uint32_t extents = 0, continuations = 0;
    for (qsizetype p = 0; p + adSize <= ads.size();) {
        const char *ad = ads.constData() + p;
        const uint32_t length = le32(ad) & 0x3FFFFFFF, kind = le32(ad) >> 30;
        uint32_t lbn = le32(ad + 4);
        uint16_t partition = adPartition;
        if (adType == 1) {
            partition = le16(ad + 8);
        } else if (adType == 2) {
            lbn = le32(ad + 12);
            partition = le16(ad + 16);
        }
        if (metadataFile)
            partition = at.partition; // the metadata file's extents: in its physical partition
        if (length == 0)
            break;
        if (++extents > kMaxExtents)
            return Error::format(source_->name(), offset, QStringLiteral("UDF: more than %1 extents in one file").arg(kMaxExtents));
        if (kind == 3) { // the list goes on in an allocation extent descriptor
            if (++continuations > kMaxContinuations)
                return Error::format(source_->name(), offset, QStringLiteral("UDF: too many allocation extent continuations"));
            auto where = metadataFile ? Result<std::vector<BlockRun>>(std::vector<BlockRun>{{0, uint64_t(partitions_[size_t(maps_[at.partition].physical)].start) + lbn, 1, false}})
                                      : place(partition, lbn, 1, 0);
            if (!where)
                return std::move(where).error();
            auto next = descriptor(where->front().physical, kAllocationExtent, blockSize_, lbn);
            if (!next)
                return std::move(next).error();
            const uint32_t more = le32(next->constData() + 20);
            if (24 + uint64_t(more) > uint64_t(next->size()))
                return Error::format(source_->name(), where->front().physical * blockSize_, QStringLiteral("UDF: an allocation extent runs past its block"));
            ads = next->mid(24, qsizetype(more));
            adPartition = partition;
            p = 0;
            continue;
        }
        const uint64_t blocks = (uint64_t(length) + blockSize_ - 1) / blockSize_;
        if (kind == 0) {
            if (metadataFile) {
                const Partition &part = partitions_[size_t(maps_[at.partition].physical)];
                if (uint64_t(lbn) + blocks > part.length)
                    return Error::format(source_->name(), offset, QStringLiteral("UDF: the metadata file lies outside its partition"));
                node.runs.push_back({logical, uint64_t(part.start) + lbn, blocks, false});
            } else {
                auto runs = place(partition, lbn, blocks, logical);
                if (!runs)
                    return std::move(runs).error();
                node.runs.insert(node.runs.end(), runs->begin(), runs->end());
            }
        } else {
            node.runs.push_back({logical, 0, blocks, true}); // allocated or not, never written: zeros
        }
        logical += blocks;
        p += adSize;
    }
    if (logical * blockSize_ < node.size)
        return Error::format(source_->name(), offset, QStringLiteral("UDF: the file's extents hold %1 of its %2 bytes").arg(logical * blockSize_).arg(node.size));
    return node;
}

Result<std::shared_ptr<Volume>> Volume::open(SourcePtr source)
{
    auto volume = std::make_shared<Volume>();
    volume->source_ = source;
    // The anchor at sector 256, whatever the sector size.
    QByteArray anchor;
    for (uint32_t size : {2048u, 512u, 4096u, 1024u}) {
        volume->blockSize_ = size;
        auto a = volume->descriptor(256, kAnchor, 512, 256);
        if (a) {
            anchor = *a;
            break;
        }
    }
    if (anchor.isEmpty())
        return Error::format(source->name(), std::nullopt, QStringLiteral("UDF: no anchor volume descriptor at sector 256"));
    const uint32_t sequenceBytes = le32(anchor.constData() + 16), sequenceStart = le32(anchor.constData() + 20);
    QByteArray logicalVolume;
    for (uint32_t i = 0; i < std::min(sequenceBytes / volume->blockSize_, kMaxDescriptorBlocks); ++i) {
        auto block = volume->readBlocks(uint64_t(sequenceStart) + i, 1);
        if (!block)
            return std::move(block).error();
        const char *d = block->constData();
        if (!tagChecksumOk(d))
            continue;
        const uint16_t id = le16(d);
        if (id == kTerminating)
            break;
        if (id == kPrimaryVolume && volume->volumeName_.isEmpty()) {
            volume->volumeName_ = QString::fromUtf8(dstring(d + 24, 32));
        } else if (id == kPartition) {
            Partition p;
            p.number = le16(d + 22);
            p.start = le32(d + 188);
            p.length = le32(d + 192);
            if (std::none_of(volume->partitions_.begin(), volume->partitions_.end(), [&](const Partition &q) { return q.number == p.number; }))
                volume->partitions_.push_back(p);
        } else if (id == kLogicalVolume && logicalVolume.isEmpty()) {
            const uint32_t mapBytes = le32(d + 264);
            if (440 + uint64_t(mapBytes) > uint64_t(volume->blockSize_) * 8)
                return Error::format(source->name(), (uint64_t(sequenceStart) + i) * volume->blockSize_, QStringLiteral("UDF: the partition maps are too long"));
            auto whole = volume->readBlocks(uint64_t(sequenceStart) + i, uint32_t((440 + mapBytes + volume->blockSize_ - 1) / volume->blockSize_));
            if (!whole)
                return std::move(whole).error();
            logicalVolume = *whole;
        }
    }
    if (logicalVolume.isEmpty() || volume->partitions_.empty())
        return Error::format(source->name(), uint64_t(sequenceStart) * volume->blockSize_, QStringLiteral("UDF: no logical volume or partition descriptor"));
    const char *lv = logicalVolume.constData();
    if (le32(lv + 212) != volume->blockSize_)
        return Error::format(source->name(), std::nullopt, QStringLiteral("UDF: logical blocks of %1 bytes on sectors of %2 are not supported").arg(le32(lv + 212)).arg(volume->blockSize_));
    if (std::memcmp(lv + 217, "*OSTA UDF Compliant", 19) == 0)
        volume->udfRevision_ = le16(lv + 216 + 24);
    const QString lvName = QString::fromUtf8(dstring(lv + 84, 128));
    if (!lvName.isEmpty())
        volume->volumeName_ = lvName;
    const uint32_t mapBytes = le32(lv + 264), mapCount = le32(lv + 268);
    struct PendingMetadata {
        size_t map;
        uint32_t file, mirror;
    };
    std::vector<PendingMetadata> metadata;
    auto physicalIndex = [&](uint16_t number) -> int {
        for (size_t i = 0; i < volume->partitions_.size(); ++i) {
            if (volume->partitions_[i].number == number)
                return int(i);
        }
        return -1;
    };
    for (uint32_t i = 0, p = 0; i < mapCount && i < 64; ++i) {
        if (p + 2 > mapBytes)
            break;
        const char *m = lv + 440 + p;
        const uint8_t type = uint8_t(m[0]), length = uint8_t(m[1]);
        if (length < 6 || p + length > mapBytes)
            return Error::format(source->name(), std::nullopt, QStringLiteral("UDF: partition map %1 is damaged").arg(i));
        Map map;
        if (type == 1) {
            map.physical = physicalIndex(le16(m + 4));
        } else if (type == 2 && length >= 64) {
            const QByteArray what(m + 5, 23);
            map.physical = physicalIndex(le16(m + 38));
            if (what.startsWith("*UDF Metadata Partition")) {
                map.kind = Map::Kind::Metadata;
                metadata.push_back({volume->maps_.size(), le32(m + 40), le32(m + 44)});
            } else if (what.startsWith("*UDF Virtual Partition")) {
                return Error::make(ErrorKind::Unsupported, source->name(), QStringLiteral("a UDF volume with a virtual partition (VAT: a CD-R, DVD-R or BD-R written incrementally), which ArchiveScope does not read"));
            } else if (!what.startsWith("*UDF Sparable Partition")) { // sparing only remaps bad packets of a disc
                return Error::make(ErrorKind::Unsupported, source->name(), QStringLiteral("UDF partition map type \"%1\" is not supported").arg(QString::fromLatin1(what.constData())));
            }
        } else {
            return Error::format(source->name(), std::nullopt, QStringLiteral("UDF: partition map %1 has unknown type %2").arg(i).arg(type));
        }
        if (map.physical < 0)
            return Error::format(source->name(), std::nullopt, QStringLiteral("UDF: partition map %1 names a partition with no descriptor").arg(i));
        volume->maps_.push_back(std::move(map));
        p += length;
    }
    for (const PendingMetadata &m : metadata) {
        // The metadata file, else its mirror: a File Entry in the physical partition.
        const Partition &part = volume->partitions_[size_t(volume->maps_[m.map].physical)];
        Result<Node> file = Error::format(source->name(), std::nullopt, QString());
        for (uint32_t at : {m.file, m.mirror}) {
            if (at == 0xFFFFFFFF || at >= part.length)
                continue;
            Address where{uint32_t(part.start + uint64_t(at)), uint16_t(m.map)};
            file = volume->readEntry(where, &volume->maps_[m.map].metadataRuns);
            if (file)
                break;
        }
        if (!file)
            return Error::format(source->name(), std::nullopt, QStringLiteral("UDF: the metadata partition's file cannot be read: %1").arg(file.error().message));
        volume->maps_[m.map].metadataRuns = file->runs;
    }
    // The file set descriptor, then the root folder's entry.
    const uint32_t fsdBlock = le32(lv + 252);
    const uint16_t fsdPartition = le16(lv + 256);
    auto fsdAt = volume->place(fsdPartition, fsdBlock, 1, 0);
    if (!fsdAt)
        return std::move(fsdAt).error();
    auto fsd = volume->descriptor(fsdAt->front().physical, kFileSet, 512, fsdBlock);
    if (!fsd)
        return std::move(fsd).error();
    volume->root_ = Address{le32(fsd->constData() + 404), le16(fsd->constData() + 408)};
    return volume;
}

Result<Node> Volume::node(Address at) const
{
    return readEntry(at, nullptr);
}

Result<QByteArray> Volume::readAll(const Node &node, const QString &where, uint64_t limit) const
{
    if (node.size > limit)
        return Error::format(where, std::nullopt, QStringLiteral("UDF: %1 bytes is more than is read for this").arg(node.size));
    auto content = this->content(node, where);
    if (!content)
        return std::move(content).error();
    QByteArray out(qsizetype(node.size), Qt::Uninitialized);
    auto got = (*content)->readAt(0, std::span(out.data(), size_t(node.size)));
    if (!got)
        return std::move(got).error();
    if (*got != node.size)
        return Error::format(where, *got, QStringLiteral("UDF: the content ends early"));
    return out;
}

Result<std::vector<DirEntry>> Volume::directory(const Node &dir, const QString &where) const
{
    auto data = readAll(dir, where, kMaxDirectory);
    if (!data)
        return std::move(data).error();
    std::vector<DirEntry> entries;
    const char *b = data->constData();
    const uint64_t n = uint64_t(data->size());
    for (uint64_t p = 0; p + 38 <= n;) {
        const char *f = b + p;
        if (le16(f) != kFileIdentifier || !tagChecksumOk(f))
            return Error::format(where, p, QStringLiteral("UDF: no file identifier descriptor here (a damaged folder)"));
        const uint8_t characteristics = uint8_t(f[18]), nameLength = uint8_t(f[19]);
        const uint16_t implementationLength = le16(f + 36);
        const uint64_t length = (38 + uint64_t(implementationLength) + nameLength + 3) & ~uint64_t(3);
        if (p + 38 + implementationLength + nameLength > n)
            return Error::format(where, p, QStringLiteral("UDF: a file identifier runs past the folder's end"));
        if (!(characteristics & (0x04 | 0x08))) { // deleted, parent
            DirEntry e;
            e.name = cs0(f + 38 + implementationLength, nameLength);
            e.dir = characteristics & 0x02;
            e.icb = Address{le32(f + 24), le16(f + 28)};
            if (!e.name.isEmpty())
                entries.push_back(std::move(e));
        }
        p += length;
    }
    return entries;
}

Result<SourcePtr> Volume::content(const Node &node, const QString &name) const
{
    if (node.isEmbedded)
        return SourcePtr(std::make_shared<MemorySource>(node.embedded, name));
    return SourcePtr(std::make_shared<BlockRunSource>(source_, node.runs, blockSize_, node.size, name));
}

Result<QByteArray> Volume::linkTarget(const Node &node, const QString &where) const
{
    auto data = readAll(node, where, kMaxSymlink);
    if (!data)
        return std::move(data).error();
    QByteArray target;
    const char *b = data->constData();
    for (qsizetype p = 0; p + 4 <= data->size();) {
        const uint8_t type = uint8_t(b[p]), length = uint8_t(b[p + 1]);
        if (p + 4 + length > data->size())
            return Error::format(where, uint64_t(p), QStringLiteral("UDF: a symlink's path component runs past its end"));
        QByteArray part;
        switch (type) {
        case 1:
        case 2: target = "/"; break; // the root: what follows is absolute
        case 3: part = ".."; break;
        case 4: part = "."; break;
        case 5: part = cs0(b + p + 4, length); break;
        default: return Error::format(where, uint64_t(p), QStringLiteral("UDF: path component type %1 is not defined").arg(type));
        }
        if (!part.isEmpty())
            target += (target.isEmpty() || target.endsWith('/') ? QByteArray() : QByteArray("/")) + part;
        p += 4 + length;
    }
    return target;
}

QString Volume::revision() const
{
    return udfRevision_ ? QStringLiteral("%1.%2").arg(udfRevision_ >> 8, 0, 16).arg(udfRevision_ & 0xFF, 2, 16, QLatin1Char('0')) : QString();
}

bool Volume::hasMetadataPartition() const
{
    return std::any_of(maps_.begin(), maps_.end(), [](const Map &m) { return m.kind == Map::Kind::Metadata; });
}

} // namespace asc::udf
