// SPDX-License-Identifier: MIT
#include "btrfs_extents.h"

#include "btrfs_volume.h"

#include "io/little_endian.h"

#include <algorithm>
#include <cstring>
#include <libdeflate.h>
#include <lzo/lzo1x.h>
#include <mutex>
#include <zstd.h>

namespace asc::btrfs {

namespace {

constexpr uint64_t kMaxDecoded = 1u << 20; // btrfs compresses 128 KiB at a time; more is hostile

Result<QByteArray> inflateZlib(QByteArrayView input, uint64_t decodedLength, const QString &name)
{
    QByteArray out(qsizetype(decodedLength), '\0');
    std::unique_ptr<libdeflate_decompressor, void (*)(libdeflate_decompressor *)> d(libdeflate_alloc_decompressor(), libdeflate_free_decompressor);
    size_t produced = 0;
    size_t consumed = 0;
    const auto rc = libdeflate_zlib_decompress_ex(d.get(), input.data(), size_t(input.size()), out.data(), size_t(out.size()), &consumed, &produced);
    if (rc != LIBDEFLATE_SUCCESS && rc != LIBDEFLATE_SHORT_OUTPUT)
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("a zlib-compressed extent does not decode (libdeflate error %1)").arg(int(rc)));
    return out; // a stream ending early leaves zeros, as the kernel's zlib_decompress does
}

Result<QByteArray> decodeZstd(QByteArrayView input, uint64_t decodedLength, const QString &name)
{
    QByteArray out(qsizetype(decodedLength), '\0');
    std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx *)> d(ZSTD_createDCtx(), ZSTD_freeDCtx);
    ZSTD_inBuffer in{input.data(), size_t(input.size()), 0};
    ZSTD_outBuffer o{out.data(), size_t(out.size()), 0};
    while (in.pos < in.size && o.pos < o.size) {
        const size_t rc = ZSTD_decompressStream(d.get(), &o, &in);
        if (ZSTD_isError(rc))
            return Error::make(ErrorKind::Damaged, name, QStringLiteral("a zstd-compressed extent does not decode: %1").arg(QString::fromUtf8(ZSTD_getErrorName(rc))));
        if (rc == 0)
            break; // one frame per extent; what follows is the sector's padding
    }
    return out;
}

// btrfs's lzo framing (fs/btrfs/lzo.c): the total length, then segments of (length, lzo1x data),
// each decoding to at most a sector; a segment header never straddles a sector boundary.
Result<QByteArray> decodeLzo(QByteArrayView input, uint64_t decodedLength, uint32_t sectorSize, const QString &name)
{
    if (input.size() < 4)
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("an lzo-compressed extent of %1 bytes").arg(input.size()));
    const uint64_t total = std::min<uint64_t>(le32(input.data()), uint64_t(input.size()));
    QByteArray out(qsizetype(decodedLength), '\0');
    uint64_t pos = 4;
    uint64_t produced = 0;
    while (pos < total && produced < decodedLength) {
        if (sectorSize - pos % sectorSize < 4)
            pos += sectorSize - pos % sectorSize;
        if (pos + 4 > total)
            break;
        const uint32_t length = le32(input.data() + pos);
        pos += 4;
        if (length == 0 || pos + length > total)
            return Error::make(ErrorKind::Damaged, name, QStringLiteral("an lzo segment of %1 bytes runs past its extent").arg(length));
        lzo_uint got = lzo_uint(std::min<uint64_t>(sectorSize, decodedLength - produced));
        const int rc = lzo1x_decompress_safe(reinterpret_cast<const unsigned char *>(input.data() + pos), length,
                                             reinterpret_cast<unsigned char *>(out.data() + produced), &got, nullptr);
        if (rc != LZO_E_OK && rc != LZO_E_OUTPUT_OVERRUN)
            return Error::make(ErrorKind::Damaged, name, QStringLiteral("an lzo segment does not decode (lzo error %1)").arg(rc));
        produced += got;
        pos += length;
    }
    return out;
}

class FileSource final : public ByteSource {
public:
    FileSource(std::shared_ptr<const Volume> volume, std::vector<FileExtent> extents, uint64_t size, QString name)
        : volume_(std::move(volume)),
          extents_(std::move(extents)),
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
        size_t done = 0;
        while (done < want) {
            const uint64_t at = offset + done;
            auto it = std::upper_bound(extents_.begin(), extents_.end(), at, [](uint64_t v, const FileExtent &e) { return v < e.fileOffset; });
            const FileExtent *e = it == extents_.begin() ? nullptr : &*std::prev(it);
            if (!e || at >= e->fileOffset + e->length) {
                // A hole (no-holes volumes do not store them): zeros up to the next extent.
                const uint64_t next = it == extents_.end() ? size_ : std::min(size_, it->fileOffset);
                const size_t n = size_t(std::min<uint64_t>(want - done, next - at));
                std::memset(buf.data() + done, 0, n);
                done += n;
                continue;
            }
            const uint64_t within = at - e->fileOffset;
            const size_t n = size_t(std::min<uint64_t>(want - done, e->length - within));
            switch (e->kind) {
            case FileExtent::Zeros: std::memset(buf.data() + done, 0, n); break;
            case FileExtent::Inline:
                if (within + n > uint64_t(e->data.size()))
                    return Error::make(ErrorKind::Damaged, name_, QStringLiteral("inline data of %1 bytes for a file read at %2").arg(e->data.size()).arg(at));
                std::memcpy(buf.data() + done, e->data.constData() + within, n);
                break;
            case FileExtent::Plain:
                if (auto read = volume_->readLogical(e->diskStart + e->offset + within, buf.subspan(done, n)); !read)
                    return std::move(read).error();
                break;
            case FileExtent::Compressed: {
                auto decoded = decodedExtent(*e);
                if (!decoded)
                    return std::move(decoded).error();
                if (e->offset + within + n > uint64_t((*decoded)->size()))
                    return Error::make(ErrorKind::Damaged, name_, QStringLiteral("a compressed extent decodes to %1 bytes, short of the file's").arg((*decoded)->size()));
                std::memcpy(buf.data() + done, (*decoded)->constData() + e->offset + within, n);
                break;
            }
            }
            done += n;
        }
        return want;
    }

private:
    Result<std::shared_ptr<const QByteArray>> decodedExtent(const FileExtent &e) const
    {
        {
            std::lock_guard lock(mutex_);
            if (cachedStart_ == e.diskStart && cached_)
                return cached_;
        }
        QByteArray input(qsizetype(e.diskLength), Qt::Uninitialized);
        if (auto read = volume_->readLogical(e.diskStart, std::span(input.data(), size_t(input.size()))); !read)
            return std::move(read).error();
        auto decoded = decompressExtent(e.compression, input, e.decodedLength, volume_->sectorSize(), name_);
        if (!decoded)
            return std::move(decoded).error();
        auto kept = std::make_shared<const QByteArray>(std::move(decoded).value());
        std::lock_guard lock(mutex_);
        cachedStart_ = e.diskStart;
        cached_ = kept;
        return kept;
    }

    std::shared_ptr<const Volume> volume_;
    std::vector<FileExtent> extents_;
    uint64_t size_;
    QString name_;
    mutable std::mutex mutex_;
    mutable uint64_t cachedStart_ = UINT64_MAX;
    mutable std::shared_ptr<const QByteArray> cached_;
};

} // namespace

Result<QByteArray> decompressExtent(uint8_t compression, QByteArrayView input, uint64_t decodedLength, uint32_t sectorSize, const QString &name)
{
    if (decodedLength > kMaxDecoded)
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("a compressed extent of %1 bytes decoded").arg(decodedLength));
    switch (compression) {
    case 1: return inflateZlib(input, decodedLength, name);
    case 2: return decodeLzo(input, decodedLength, sectorSize, name);
    case 3: return decodeZstd(input, decodedLength, name);
    default: return Error::make(ErrorKind::Unsupported, name, QStringLiteral("btrfs compression type %1, which ArchiveScope does not know").arg(compression));
    }
}

Result<FileExtent> parseFileExtent(uint64_t at, QByteArrayView item, const QString &name)
{
    if (item.size() < 21)
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("a file extent item of %1 bytes").arg(item.size()));
    const char *p = item.data();
    FileExtent e;
    e.fileOffset = at;
    e.decodedLength = le64(p + 8);
    e.compression = uint8_t(p[16]);
    if (p[17] != 0)
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("the file is encrypted: ArchiveScope cannot decrypt it"));
    const uint8_t type = uint8_t(p[20]);
    if (type == 0) {
        e.kind = FileExtent::Inline;
        const QByteArrayView stored = item.sliced(21);
        if (e.compression) {
            auto decoded = decompressExtent(e.compression, stored, e.decodedLength, 4096, name);
            if (!decoded)
                return std::move(decoded).error();
            e.data = std::move(decoded).value();
        } else {
            e.data = stored.toByteArray();
        }
        e.length = uint64_t(e.data.size());
        return e;
    }
    if (type != 1 && type != 2)
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("file extent type %1").arg(type));
    if (item.size() < 53)
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("a file extent item of %1 bytes").arg(item.size()));
    e.diskStart = le64(p + 21);
    e.diskLength = le64(p + 29);
    e.offset = le64(p + 37);
    e.length = le64(p + 45);
    if (e.length > (uint64_t(1) << 50) || e.fileOffset > (uint64_t(1) << 62))
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("a file extent of %1 bytes at %2").arg(e.length).arg(at));
    if (type == 2 || e.diskStart == 0)
        e.kind = FileExtent::Zeros; // preallocated, or a hole written as an extent
    else if (e.compression)
        e.kind = FileExtent::Compressed;
    else
        e.kind = FileExtent::Plain;
    if (e.kind == FileExtent::Compressed && (e.diskLength > kMaxDecoded || e.offset + e.length > e.decodedLength))
        return Error::make(ErrorKind::Damaged, name, QStringLiteral("a compressed extent of %1 bytes holding %2 at %3").arg(e.diskLength).arg(e.length).arg(e.offset));
    return e;
}

Result<SourcePtr> makeFileSource(std::shared_ptr<const Volume> volume, std::vector<FileExtent> extents, uint64_t size, QString name)
{
    std::sort(extents.begin(), extents.end(), [](const FileExtent &a, const FileExtent &b) { return a.fileOffset < b.fileOffset; });
    return SourcePtr(std::make_shared<FileSource>(std::move(volume), std::move(extents), size, std::move(name)));
}

} // namespace asc::btrfs
