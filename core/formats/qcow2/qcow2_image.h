// SPDX-License-Identifier: MIT
#pragma once
// The virtual disk of a qcow2 image as a byte source (thread safe, positional reads of any offset
// and length; holes read as zeros; past the virtual size is EOF). Our own reader: versions 2 and
// 3, clusters 512 B..2 MiB, zero clusters, deflate and zstd compressed clusters (decompressed on
// several threads ahead of sequential reads), extended L2 entries, backing chains (qcow2 or raw,
// loops and depth > 64 refused), internal snapshots.

#include "formats/image/disk_image.h"
#include "qcow2_header.h"

#include <QSet>
#include <memory>

namespace asc {

class Qcow2Image final : public DiskImage, public std::enable_shared_from_this<Qcow2Image> {
public:
    struct OpenOptions {
        QString snapshot; // read this internal snapshot (id or name) instead of the active layer
        int depth = 0; // position in a backing chain
        QSet<QString> chain; // canonical paths already in the chain (loop detection)
    };

    static Result<std::shared_ptr<Qcow2Image>> open(SourcePtr file, const OpenOptions &options);
    static Result<std::shared_ptr<Qcow2Image>> open(SourcePtr file) { return open(std::move(file), OpenOptions{}); }
    ~Qcow2Image() override;

    uint64_t size() const override { return size_; }
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override;
    QString name() const override { return file_->name(); }
    std::optional<FileExtent> fileExtent(uint64_t offset) const override;
    uint64_t zeroRun(uint64_t offset) const override;
    QJsonObject info() const override;
    Result<std::vector<DiskExtent>> map(uint64_t start, uint64_t length) const override;
    QString formatName() const override { return QStringLiteral("qcow2"); }

    const Qcow2Header &header() const { return header_; }
    const SourcePtr &file() const { return file_; }

private:
    enum class Kind { Normal,
                      Zero,
                      Unallocated,
                      Compressed };
    struct Piece {
        Kind kind = Kind::Unallocated;
        uint64_t host = 0; // Normal: host offset of this guest byte; Zero: preallocated host cluster (or 0)
        uint64_t length = 0; // bytes from the guest offset that share this state
        uint64_t descriptor = 0; // Compressed: the L2 descriptor
        uint64_t cluster = 0; // Compressed: guest cluster index
    };
    struct L2Cache;
    struct ClusterCache;

    Qcow2Image(SourcePtr file, Qcow2Header header, int depth);
    Result<void> loadL1(uint64_t offset, uint32_t entries);
    Result<void> openBacking(const OpenOptions &options);
    // The state of the guest byte at `offset`, and how far it extends (at most `limit` bytes).
    Result<Piece> pieceAt(uint64_t offset, uint64_t limit) const;
    Result<Piece> granuleAt(uint64_t offset) const;
    Result<std::shared_ptr<const std::vector<uint64_t>>> l2Table(uint64_t tableOffset) const;
    Result<std::shared_ptr<const QByteArray>> cluster(uint64_t index, uint64_t descriptor) const;
    Result<QByteArray> decompress(uint64_t descriptor) const;
    void prefetchAfter(uint64_t clusterIndex) const;

    SourcePtr file_;
    Qcow2Header header_;
    int depth_;
    uint64_t size_ = 0;
    std::vector<uint64_t> l1_;
    std::shared_ptr<DiskImage> backing_;
    QStringList chainNames_;
    std::unique_ptr<L2Cache> l2Cache_;
    std::unique_ptr<ClusterCache> clusterCache_;
};

// A raw file as a disk image (backing files, and for `map` on raw images).
class RawImage final : public DiskImage {
public:
    explicit RawImage(SourcePtr file)
        : file_(std::move(file)) {}
    uint64_t size() const override { return file_->size(); }
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override { return file_->readAt(offset, buf); }
    QString name() const override { return file_->name(); }
    std::optional<FileExtent> fileExtent(uint64_t offset) const override { return file_->fileExtent(offset); }
    uint64_t zeroRun(uint64_t offset) const override { return file_->zeroRun(offset); }
    QJsonObject info() const override;
    Result<std::vector<DiskExtent>> map(uint64_t start, uint64_t length) const override;
    QString formatName() const override { return QStringLiteral("raw"); }
    void setDepth(int depth) { depth_ = depth; }

private:
    SourcePtr file_;
    int depth_ = 0;
};

} // namespace asc
