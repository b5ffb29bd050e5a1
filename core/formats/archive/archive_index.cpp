// SPDX-License-Identifier: MIT
#include "archive_index.h"

#include "io/prefault.h"
#include "vfs/entry_codec.h"
#include "vfs/varint.h"

#include <QDataStream>
#include <QIODevice>
#include <zlib.h>
#include <zstd.h>

namespace asc {

namespace {
const QByteArray kMagic = QByteArrayLiteral("ASCINDEX");
constexpr quint32 kVersion = 4; // 2: bzip2 blocks, zstd and lz4 frames; 3: cpio and ar members; 4: compact listing
constexpr quint8 kLittleEndian = 1;
// What ISA-L's window needs; a span no longer than this (index_cache's spacing, with room).
constexpr qsizetype kWindow = 32768;
constexpr uint64_t kMaxSpan = uint64_t(64) << 20;
constexpr unsigned long long kMaxPayload = 1ULL << 30; // 5 million entries and more

quint32 crcOf(QByteArrayView bytes)
{
    return quint32(crc32(0, reinterpret_cast<const Bytef *>(bytes.data()), uInt(bytes.size())));
}
} // namespace

QByteArray encodeIndex(const ArchiveIndex &index)
{
    QByteArray payload;
    {
        QDataStream out(&payload, QIODevice::WriteOnly);
        out.setVersion(QDataStream::Qt_6_4);
        // Strings as bytes: QDataStream's QString and QStringList trust the lengths they read
        // (a damaged index would make them allocate gigabytes); its QByteArray reads in steps.
        out << index.identity << index.libarchiveFormat.toUtf8() << quint8(index.memberFormat) << index.filters.join(QLatin1Char(',')).toUtf8()
            << index.entries;
        QByteArray headers; // each from the one before: a member's size, a few bytes
        varint::DeltaWriter delta;
        for (uint64_t h : index.headers)
            delta.put(headers, h);
        out << quint64(index.headers.size()) << headers;
        out << quint64(index.decodedSize) << bool(index.gzip);
        if (index.gzip) {
            out << quint64(index.gzip->decodedSize) << quint64(index.gzip->points.size());
            for (const GzipSeekPoint &p : index.gzip->points)
                out << quint64(p.out) << quint64(p.bit) << p.memberStart << quint32(p.spanCrc) << p.window; // the whole payload is compressed below
        }
        out << bool(index.xz);
        if (index.xz) {
            out << quint32(index.xz->check) << quint64(index.xz->decodedSize) << quint64(index.xz->blocks.size());
            for (const XzBlock &b : index.xz->blocks)
                out << quint64(b.compressed) << quint64(b.compressedSize) << quint64(b.out) << quint64(b.outSize);
        }
        out << bool(index.bzip2);
        if (index.bzip2) {
            out << quint64(index.bzip2->decodedSize) << quint64(index.bzip2->points.size());
            for (const Bzip2Point &p : index.bzip2->points)
                out << quint64(p.bit) << quint64(p.out) << quint32(p.combined) << quint8(p.level);
        }
        out << bool(index.frames);
        if (index.frames) {
            out << quint64(index.frames->decodedSize) << quint64(index.frames->points.size());
            for (const FramePoint &p : index.frames->points)
                out << quint64(p.byte) << quint64(p.out);
        }
    }
    return wrapIndexPayload(payload);
}

QByteArray wrapIndexPayload(const QByteArray &payload)
{
    // The listing is most of it (paths repeat their folders): compressed, fast.
    QByteArray packed(qsizetype(ZSTD_compressBound(size_t(payload.size()))), Qt::Uninitialized);
    const size_t n = ZSTD_compress(packed.data(), size_t(packed.size()), payload.constData(), size_t(payload.size()), 1);
    packed.truncate(ZSTD_isError(n) ? 0 : qsizetype(n));
    QByteArray file = kMagic;
    QDataStream head(&file, QIODevice::Append);
    head << kVersion << kLittleEndian << crcOf(packed) << quint64(packed.size());
    return file + packed;
}

namespace {
Error notUsable(const QString &where, const QString &what)
{
    return Error::format(where, std::nullopt, QStringLiteral("not a usable index: %1").arg(what));
}

// The compressed payload of an index file and its decoded size, once its header and checksum
// hold.
struct Packed {
    QByteArrayView bytes;
    unsigned long long unpacked = 0;
};

Result<Packed> packedPayload(const QByteArray &bytes, const QString &where)
{
    const qsizetype headSize = kMagic.size() + 4 + 1 + 4 + 8;
    if (bytes.size() < headSize || !bytes.startsWith(kMagic))
        return notUsable(where, QStringLiteral("no index header"));
    QDataStream head(bytes.mid(kMagic.size(), headSize - kMagic.size()));
    quint32 version = 0, crc = 0;
    quint8 order = 0;
    quint64 length = 0;
    head >> version >> order >> crc >> length;
    if (version != kVersion || order != kLittleEndian || Q_BYTE_ORDER != Q_LITTLE_ENDIAN)
        return notUsable(where, QStringLiteral("written by another version"));
    const QByteArrayView packed = QByteArrayView(bytes).sliced(headSize);
    if (quint64(packed.size()) != length || crcOf(packed) != crc)
        return notUsable(where, QStringLiteral("its checksum does not match (damaged or cut short)"));
    const unsigned long long unpacked = ZSTD_getFrameContentSize(packed.data(), size_t(packed.size()));
    if (unpacked == ZSTD_CONTENTSIZE_ERROR || unpacked == ZSTD_CONTENTSIZE_UNKNOWN || unpacked > kMaxPayload)
        return notUsable(where, QStringLiteral("its listing is damaged"));
    return Packed{packed, unpacked};
}
} // namespace

Result<void> checkIndexFile(const QByteArray &bytes, const QString &where)
{
    auto packed = packedPayload(bytes, where);
    if (!packed)
        return std::move(packed).error();
    return {};
}

Result<ArchiveIndex> decodeIndex(const QByteArray &bytes, const QString &where)
{
    auto bad = [&](const QString &what) { return notUsable(where, what); };
    auto packed = packedPayload(bytes, where);
    if (!packed)
        return std::move(packed).error();
    QByteArray payload(qsizetype(packed->unpacked), Qt::Uninitialized);
    prefault(payload.data(), size_t(payload.size()));
    const size_t got = ZSTD_decompress(payload.data(), size_t(payload.size()), packed->bytes.data(), size_t(packed->bytes.size()));
    if (ZSTD_isError(got) || got != packed->unpacked)
        return bad(QStringLiteral("its listing is damaged"));
    QDataStream in(payload);
    in.setVersion(QDataStream::Qt_6_4);
    ArchiveIndex index;
    QByteArray format, filters;
    quint8 memberFormat = 0;
    in >> index.identity >> format >> memberFormat >> filters >> index.entries;
    index.libarchiveFormat = QString::fromUtf8(format);
    if (memberFormat > quint8(MemberFormat::Ar))
        return bad(QStringLiteral("its listing is inconsistent"));
    index.memberFormat = MemberFormat(memberFormat);
    index.filters = filters.isEmpty() ? QStringList() : QString::fromUtf8(filters).split(QLatin1Char(','));
    quint64 headers = 0;
    QByteArray headerBytes;
    in >> headers >> headerBytes;
    if (in.status() != QDataStream::Ok || headers != index.entries.size())
        return bad(QStringLiteral("its listing is inconsistent"));
    index.headers.resize(size_t(headers));
    varint::Reader headerReader(headerBytes.constData(), headerBytes.constData() + headerBytes.size());
    varint::DeltaReader delta;
    for (uint64_t &h : index.headers)
        h = delta.get(headerReader);
    if (!headerReader.ok() || !headerReader.atEnd())
        return bad(QStringLiteral("its listing is inconsistent"));
    quint64 decoded = 0;
    bool hasGzip = false;
    in >> decoded >> hasGzip;
    index.decodedSize = decoded;
    for (size_t i = 0; i < index.entries.size(); ++i) {
        if (index.entries[i].ordinal != i || (index.headers[i] != kUnknown && index.headers[i] >= decoded))
            return bad(QStringLiteral("entry %1 is out of place").arg(i));
    }
    if (hasGzip) {
        auto gzip = std::make_shared<GzipSeekIndex>();
        quint64 gzipSize = 0, count = 0;
        in >> gzipSize >> count;
        if (in.status() != QDataStream::Ok || count == 0 || count > quint64(payload.size()) / 29)
            return bad(QStringLiteral("its seek points are inconsistent"));
        gzip->decodedSize = gzipSize;
        gzip->points.resize(size_t(count));
        for (GzipSeekPoint &p : gzip->points) {
            quint64 out = 0, bit = 0;
            quint32 spanCrc = 0;
            QByteArray window;
            in >> out >> bit >> p.memberStart >> spanCrc >> window;
            p.out = out;
            p.bit = bit;
            p.spanCrc = spanCrc;
            if (window.size() > kWindow)
                return bad(QStringLiteral("a seek point's window is damaged"));
            p.window = std::move(window);
        }
        if (in.status() != QDataStream::Ok || gzipSize != decoded || !gzip->plausible(kMaxSpan))
            return bad(QStringLiteral("its seek points are inconsistent"));
        index.gzip = std::move(gzip);
    }
    bool hasXz = false;
    in >> hasXz;
    if (hasXz) {
        auto xz = std::make_shared<XzBlockIndex>();
        quint32 check = 0;
        quint64 xzSize = 0, count = 0;
        in >> check >> xzSize >> count;
        if (in.status() != QDataStream::Ok || count > quint64(payload.size()) / 32)
            return bad(QStringLiteral("its xz blocks are inconsistent"));
        xz->check = check;
        xz->decodedSize = xzSize;
        xz->blocks.resize(size_t(count));
        for (XzBlock &b : xz->blocks) {
            quint64 at = 0, size = 0, out = 0, outSize = 0;
            in >> at >> size >> out >> outSize;
            b = {at, size, out, outSize};
        }
        // Against the file's size when it is used (openXzAt); here, that it adds up.
        if (in.status() != QDataStream::Ok || xzSize != decoded || !xz->plausible(UINT64_MAX))
            return bad(QStringLiteral("its xz blocks are inconsistent"));
        index.xz = std::move(xz);
    }
    bool hasBzip2 = false;
    in >> hasBzip2;
    if (hasBzip2) {
        auto bzip2 = std::make_shared<Bzip2PointIndex>();
        quint64 bzip2Size = 0, count = 0;
        in >> bzip2Size >> count;
        if (in.status() != QDataStream::Ok || count > quint64(payload.size()) / 21)
            return bad(QStringLiteral("its bzip2 blocks are inconsistent"));
        bzip2->decodedSize = bzip2Size;
        bzip2->points.resize(size_t(count));
        for (Bzip2Point &p : bzip2->points) {
            quint64 bit = 0, out = 0;
            quint32 combined = 0;
            quint8 level = 0;
            in >> bit >> out >> combined >> level;
            p = {bit, out, combined, level};
        }
        // Against the file's size when it is used (openBzip2At); here, that it is in order.
        if (in.status() != QDataStream::Ok || bzip2Size != decoded || !bzip2->plausible(UINT64_MAX))
            return bad(QStringLiteral("its bzip2 blocks are inconsistent"));
        index.bzip2 = std::move(bzip2);
    }
    bool hasFrames = false;
    in >> hasFrames;
    if (hasFrames) {
        auto frames = std::make_shared<FramePointIndex>();
        quint64 framesSize = 0, count = 0;
        in >> framesSize >> count;
        if (in.status() != QDataStream::Ok || count > quint64(payload.size()) / 16)
            return bad(QStringLiteral("its frames are inconsistent"));
        frames->decodedSize = framesSize;
        frames->points.resize(size_t(count));
        for (FramePoint &p : frames->points) {
            quint64 byte = 0, out = 0;
            in >> byte >> out;
            p = {byte, out};
        }
        const bool framed = index.filters == QStringList{QStringLiteral("zstd")} || index.filters == QStringList{QStringLiteral("lz4")};
        if (in.status() != QDataStream::Ok || !framed || framesSize != decoded || !frames->plausible(UINT64_MAX))
            return bad(QStringLiteral("its frames are inconsistent"));
        index.frames = std::move(frames);
    }
    if (in.status() != QDataStream::Ok || !in.atEnd())
        return bad(QStringLiteral("it does not end where it should"));
    return index;
}

} // namespace asc
