// SPDX-License-Identifier: MIT
#include "lvm_thin.h"

#include "formats/image/block_image.h"
#include "io/fuzzing.h"
#include "io/little_endian.h"

#include <QHash>
#include <cstring>
#include <list>
#include <mutex>

namespace asc::lvm {

namespace {

constexpr uint64_t kMetadataBlock = 4096;
constexpr uint64_t kThinMagic = 27022010;
constexpr uint32_t kSuperblockXor = 160774;
constexpr uint32_t kNodeXor = 121107;
constexpr uint32_t kInternalNode = 1;
constexpr uint32_t kLeafNode = 2;
constexpr int kMaxTreeDepth = 16;
constexpr size_t kCachedNodes = 256;

// The kernel's dm_bm_checksum: crc32c from ~0 without the final inversion, xor a salt per block kind.
uint32_t blockChecksum(const char *block, uint32_t salt)
{
    if (kChecksumsAlwaysPass)
        return le32(block);
    return ~crc32c(block + 4, kMetadataBlock - 4) ^ salt;
}

// A pool's metadata: B-tree lookups over 4 KiB blocks, recently used nodes kept.
class ThinMetadata {
public:
    ThinMetadata(SourcePtr metadata, QString name)
        : metadata_(std::move(metadata)),
          name_(std::move(name))
    {
    }

    Result<void> readSuperblock()
    {
        char block[kMetadataBlock];
        if (auto read = metadata_->readExact(0, std::span(block, sizeof block)); !read)
            return std::move(read).error();
        if (le64(block + 32) != kThinMagic)
            return Error::format(name_, 32, QStringLiteral("thin pool metadata has no superblock magic"));
        if (blockChecksum(block, kSuperblockXor) != le32(block))
            return Error::make(ErrorKind::Checksum, name_, QStringLiteral("thin pool superblock fails its checksum"), 0);
        mappingRoot_ = le64(block + 320);
        dataBlockBytes_ = uint64_t(le32(block + 336)) * 512;
        transactionId_ = le64(block + 48);
        if (dataBlockBytes_ == 0 || dataBlockBytes_ > (1ull << 32))
            return Error::format(name_, 336, QStringLiteral("thin pool data block size %1 bytes").arg(dataBlockBytes_));
        return {};
    }

    uint64_t dataBlockBytes() const { return dataBlockBytes_; }
    uint64_t mappingRoot() const { return mappingRoot_; }

    // The value stored under `key` in the tree at `root`; nullopt when absent.
    Result<std::optional<uint64_t>> lookup(uint64_t root, uint64_t key) const
    {
        uint64_t block = root;
        for (int depth = 0; depth < kMaxTreeDepth; ++depth) {
            auto node = readNode(block);
            if (!node)
                return std::move(node).error();
            const QByteArray &n = **node;
            const char *p = n.constData();
            const uint32_t flags = le32(p + 4);
            const uint32_t count = le32(p + 16);
            const uint32_t max = le32(p + 20);
            const uint32_t valueSize = le32(p + 24);
            if (count > max || 32 + uint64_t(max) * (8 + valueSize) > kMetadataBlock || valueSize < 8)
                return Error::format(name_, block * kMetadataBlock, QStringLiteral("thin metadata node with %1 of %2 entries of %3 bytes").arg(count).arg(max).arg(valueSize));
            const char *keys = p + 32;
            const char *values = keys + 8 * uint64_t(max);
            // The last key not above `key` (keys ascend).
            uint32_t lo = 0, hi = count;
            while (lo < hi) {
                const uint32_t mid = (lo + hi) / 2;
                if (le64(keys + 8 * mid) <= key)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo == 0)
                return std::optional<uint64_t>();
            const uint32_t i = lo - 1;
            const uint64_t value = le64(values + uint64_t(i) * valueSize);
            if (flags & kLeafNode)
                return le64(keys + 8 * i) == key ? std::optional<uint64_t>(value) : std::optional<uint64_t>();
            if (!(flags & kInternalNode))
                return Error::format(name_, block * kMetadataBlock, QStringLiteral("thin metadata node is neither internal nor leaf"));
            block = value;
        }
        return Error::format(name_, root * kMetadataBlock, QStringLiteral("thin metadata tree deeper than %1 levels (a loop?)").arg(kMaxTreeDepth));
    }

private:
    Result<std::shared_ptr<const QByteArray>> readNode(uint64_t block) const
    {
        {
            std::lock_guard lock(mutex_);
            if (auto it = cache_.find(block); it != cache_.end())
                return it.value();
        }
        if (block >= metadata_->size() / kMetadataBlock)
            return Error::format(name_, std::nullopt, QStringLiteral("thin metadata refers to block %1 past its end").arg(block));
        auto node = std::make_shared<QByteArray>(qsizetype(kMetadataBlock), Qt::Uninitialized);
        if (auto read = metadata_->readExact(block * kMetadataBlock, std::span(node->data(), kMetadataBlock)); !read)
            return std::move(read).error();
        if (blockChecksum(node->constData(), kNodeXor) != le32(node->constData()))
            return Error::make(ErrorKind::Checksum, name_, QStringLiteral("thin metadata block %1 fails its checksum").arg(block), block * kMetadataBlock);
        if (le64(node->constData() + 8) != block)
            return Error::format(name_, block * kMetadataBlock, QStringLiteral("thin metadata block %1 says it is block %2").arg(block).arg(le64(node->constData() + 8)));
        std::lock_guard lock(mutex_);
        if (size_t(cache_.size()) >= kCachedNodes)
            cache_.clear();
        cache_.insert(block, node);
        return std::shared_ptr<const QByteArray>(node);
    }

    SourcePtr metadata_;
    QString name_;
    uint64_t mappingRoot_ = 0;
    uint64_t dataBlockBytes_ = 0;
    uint64_t transactionId_ = 0;
    mutable std::mutex mutex_;
    mutable QHash<uint64_t, std::shared_ptr<const QByteArray>> cache_;
};

class ThinVolumeSource final : public ByteSource {
public:
    ThinVolumeSource(std::shared_ptr<const ThinMetadata> metadata, uint64_t deviceRoot, SourcePtr data, uint64_t size, QString name)
        : metadata_(std::move(metadata)),
          deviceRoot_(deviceRoot),
          data_(std::move(data)),
          size_(size),
          name_(std::move(name))
    {
    }

    uint64_t size() const override { return size_; }
    QString name() const override { return name_; }

    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override
    {
        if (offset >= size_)
            return size_t(0);
        const size_t want = size_t(std::min<uint64_t>(buf.size(), size_ - offset));
        const uint64_t blockBytes = metadata_->dataBlockBytes();
        size_t done = 0;
        while (done < want) {
            const uint64_t at = offset + done;
            const uint64_t within = at % blockBytes;
            const size_t n = size_t(std::min<uint64_t>(want - done, blockBytes - within));
            auto mapped = metadata_->lookup(deviceRoot_, at / blockBytes);
            if (!mapped)
                return std::move(mapped).error();
            if (!*mapped) {
                std::memset(buf.data() + done, 0, n);
            } else {
                const uint64_t dataBlock = **mapped >> 24;
                if (dataBlock >= data_->size() / blockBytes)
                    return Error::format(name_, at, QStringLiteral("thin block %1 maps to data block %2, past the pool's end").arg(at / blockBytes).arg(dataBlock));
                if (auto read = data_->readExact(dataBlock * blockBytes + within, buf.subspan(done, n)); !read)
                    return std::move(read).error();
            }
            done += n;
        }
        return want;
    }

    uint64_t zeroRun(uint64_t offset) const override
    {
        if (offset >= size_)
            return 0;
        const uint64_t blockBytes = metadata_->dataBlockBytes();
        auto mapped = metadata_->lookup(deviceRoot_, offset / blockBytes);
        if (!mapped || *mapped)
            return 0;
        return std::min(blockBytes - offset % blockBytes, size_ - offset);
    }

private:
    std::shared_ptr<const ThinMetadata> metadata_;
    uint64_t deviceRoot_;
    SourcePtr data_;
    uint64_t size_;
    QString name_;
};

} // namespace

Result<SourcePtr> openThinVolume(const std::shared_ptr<const VolumeGroupView> &group, const LogicalVolume &lv, const QString &name, int depth)
{
    const VolumeGroup &vg = group->vg;
    const Segment &seg = lv.segments.front();
    const LogicalVolume *pool = vg.volume(seg.pool);
    if (!pool || pool->segments.size() != 1 || pool->segments.front().type != "thin-pool")
        return Error::format(name, std::nullopt, QStringLiteral("thin volume %1 names pool '%2', which is not a thin pool of %3").arg(QString::fromUtf8(lv.name), QString::fromUtf8(seg.pool), QString::fromUtf8(vg.name)));
    const Segment &poolSeg = pool->segments.front();
    // Pools are opened per thin volume: the metadata is small and its nodes are cached per source.
    auto metadataSource = openVolume(group, poolSeg.poolMetadata, name + QStringLiteral(" (metadata of %1)").arg(QString::fromUtf8(pool->name)), depth + 1);
    if (!metadataSource)
        return std::move(metadataSource).error();
    auto dataSource = openVolume(group, poolSeg.poolData, name, depth + 1);
    if (!dataSource)
        return std::move(dataSource).error();
    auto metadata = std::make_shared<ThinMetadata>(*metadataSource, (*metadataSource)->name());
    if (auto ok = metadata->readSuperblock(); !ok)
        return std::move(ok).error();
    auto deviceRoot = metadata->lookup(metadata->mappingRoot(), seg.deviceId);
    if (!deviceRoot)
        return std::move(deviceRoot).error();
    if (!*deviceRoot)
        return Error::format(name, std::nullopt, QStringLiteral("thin device %1 (%2) is not in pool %3's metadata").arg(seg.deviceId).arg(QString::fromUtf8(lv.name), QString::fromUtf8(pool->name)));
    return SourcePtr(std::make_shared<ThinVolumeSource>(std::move(metadata), **deviceRoot, std::move(dataSource).value(), lv.extents() * vg.extentSize, name));
}

Result<SourcePtr> openSnapshot(const std::shared_ptr<const VolumeGroupView> &, const LogicalVolume &lv, const Segment &segment, const QString &name, int)
{
    return Error::make(ErrorKind::Unsupported, name,
                       QStringLiteral("%1 is an old-style snapshot of %2 (its copy-on-write store is not read yet; the origin is)").arg(QString::fromUtf8(lv.name), QString::fromUtf8(segment.origin)));
}

} // namespace asc::lvm
