// SPDX-License-Identifier: MIT
#include "io/trace.h"
#include "qcow2_image.h"

#include "codecs/decode_pool.h"
#include "formats/image/sibling_file.h"

#include "io/file_source.h"

#include <QFileInfo>
#include <QJsonArray>

#include <cstring>
#include <future>
#include <libdeflate.h>
#include <list>
#include <mutex>
#include <unistd.h>
#include <unordered_map>
#include <zstd.h>

namespace asc {

namespace {

constexpr uint64_t kOffsetMask = 0x00FFFFFFFFFFFE00ULL;
constexpr uint64_t kCompressedBit = 1ULL << 62;
constexpr int kMaxChainDepth = 64;

uint64_t be64(const char *p)
{
    uint64_t v;
    std::memcpy(&v, p, 8);
    return __builtin_bswap64(v);
}

struct Inflater {
    libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    ~Inflater() { libdeflate_free_decompressor(d); }
};
struct ZstdContext {
    ZSTD_DCtx *d = ZSTD_createDCtx();
    ~ZstdContext() { ZSTD_freeDCtx(d); }
};

} // namespace

// L2 tables by host offset, least recently used evicted; entries already in host byte order.
struct Qcow2Image::L2Cache {
    std::mutex mutex;
    std::list<uint64_t> order;
    std::unordered_map<uint64_t, std::pair<std::shared_ptr<const std::vector<uint64_t>>, std::list<uint64_t>::iterator>> tables;
    size_t capacity = 64;
};

// Decompressed clusters by guest cluster index; a slot is a future so a reader waits for a
// prefetch in progress instead of decompressing the same cluster twice.
struct Qcow2Image::ClusterCache {
    using Value = Result<std::shared_ptr<const QByteArray>>;
    std::mutex mutex;
    std::list<uint64_t> order;
    std::unordered_map<uint64_t, std::pair<std::shared_future<Value>, std::list<uint64_t>::iterator>> clusters;
    size_t capacity = 64;
    uint64_t lastRead = UINT64_MAX; // for detecting sequential reads
    uint64_t prefetchedUpTo = 0;
};

Qcow2Image::Qcow2Image(SourcePtr file, Qcow2Header header, int depth)
    : file_(std::move(file)),
      header_(std::move(header)),
      depth_(depth),
      l2Cache_(std::make_unique<L2Cache>()),
      clusterCache_(std::make_unique<ClusterCache>())
{
    // Bounded caches: 32 MiB of L2 tables, 64 MiB (at least 16 clusters) of decompressed data.
    l2Cache_->capacity = std::max<size_t>(16, size_t((32ULL << 20) / header_.clusterSize()));
    clusterCache_->capacity = std::max<size_t>(16, size_t((64ULL << 20) / header_.clusterSize()));
}

Qcow2Image::~Qcow2Image() = default;

Result<void> Qcow2Image::loadL1(uint64_t offset, uint32_t entries)
{
    if (entries == 0)
        return {};
    if (offset % header_.clusterSize() || offset >= file_->size() || uint64_t(entries) * 8 > file_->size() - offset)
        return Error::format(name(), offset, QStringLiteral("L1 table (%1 entries) lies outside the file or is unaligned").arg(entries));
    QByteArray raw(qsizetype(entries) * 8, Qt::Uninitialized);
    const TraceLayer layer("qcow2 L1 table");
    if (auto read = file_->readExact(offset, std::span(raw.data(), size_t(raw.size()))); !read)
        return read;
    l1_.resize(entries);
    for (uint32_t i = 0; i < entries; ++i)
        l1_[i] = be64(raw.constData() + size_t(i) * 8);
    return {};
}

Result<std::shared_ptr<Qcow2Image>> Qcow2Image::open(SourcePtr file, const OpenOptions &options)
{
    auto header = parseQcow2Header(*file);
    if (!header)
        return std::move(header).error();
    std::shared_ptr<Qcow2Image> image(new Qcow2Image(file, std::move(header).value(), options.depth));
    const Qcow2Header &h = image->header_;
    image->size_ = h.size;
    uint64_t l1Offset = h.l1TableOffset;
    uint32_t l1Size = h.l1Size;
    if (!options.snapshot.isEmpty()) {
        const Qcow2Snapshot *found = nullptr;
        for (const Qcow2Snapshot &s : h.snapshots)
            if (s.id == options.snapshot || s.name == options.snapshot)
                found = &s;
        if (!found)
            return Error::make(ErrorKind::NotFound, file->name(), QStringLiteral("no snapshot '%1'").arg(options.snapshot));
        l1Offset = found->l1Offset;
        l1Size = found->l1Size;
        if (found->diskSize)
            image->size_ = found->diskSize;
        if (uint64_t(l1Size) * 8 > (32ULL << 20))
            return Error::format(file->name(), found->l1Offset, QStringLiteral("snapshot L1 table too large"));
    }
    if (auto l1 = image->loadL1(l1Offset, l1Size); !l1)
        return std::move(l1).error();
    if (auto backing = image->openBacking(options); !backing)
        return std::move(backing).error();
    return image;
}

Result<void> Qcow2Image::openBacking(const OpenOptions &options)
{
    if (header_.backingFile.isEmpty())
        return {};
    const QString stored = QString::fromUtf8(header_.backingFile);
    const auto *plain = dynamic_cast<const FileSource *>(file_.get());
    if (!plain)
        return Error::make(ErrorKind::Unsupported, name(),
                           QStringLiteral("backing file '%1' of an image inside a container is not followed").arg(stored));
    if (options.depth + 1 > kMaxChainDepth)
        return Error::format(name(), 8, QStringLiteral("backing chain deeper than %1 images").arg(kMaxChainDepth));
    auto resolved = resolveSibling({*plain, stored, QStringLiteral("backing file"), 8});
    if (!resolved)
        return std::move(resolved).error();
    const QString canonical = std::move(resolved).value();
    const QFileInfo self(plain->path());
    QSet<QString> chain = options.chain;
    chain.insert(self.canonicalFilePath());
    if (chain.contains(canonical))
        return Error::format(name(), 8, QStringLiteral("backing file '%1' creates a loop in the backing chain").arg(stored));
    auto backingFile = FileSource::open(canonical);
    if (!backingFile)
        return std::move(backingFile).error();
    // The header's format wins; probing happens only when it names none.
    QString format = header_.backingFormat;
    if (format.isEmpty()) {
        char magic[8] = {};
        auto got = (*backingFile)->readAt(0, std::span(magic, sizeof magic));
        format = got && looksLikeQcow2(std::span<const char>(magic, *got)) ? QStringLiteral("qcow2") : QStringLiteral("raw");
    }
    if (format == QLatin1String("qcow2")) {
        OpenOptions next;
        next.depth = options.depth + 1;
        next.chain = chain;
        auto image = Qcow2Image::open(std::move(backingFile).value(), next);
        if (!image)
            return std::move(image).error();
        chainNames_ = QStringList{canonical} + (*image)->chainNames_;
        backing_ = std::move(image).value();
    } else if (format == QLatin1String("raw")) {
        auto raw = std::make_shared<RawImage>(std::move(backingFile).value());
        raw->setDepth(options.depth + 1);
        chainNames_ = {canonical};
        backing_ = raw;
    } else {
        return Error::make(ErrorKind::Unsupported, name(), QStringLiteral("backing file format '%1' is not supported").arg(format), 8);
    }
    return {};
}

Result<std::shared_ptr<const std::vector<uint64_t>>> Qcow2Image::l2Table(uint64_t tableOffset) const
{
    {
        std::lock_guard lock(l2Cache_->mutex);
        auto it = l2Cache_->tables.find(tableOffset);
        if (it != l2Cache_->tables.end()) {
            l2Cache_->order.splice(l2Cache_->order.begin(), l2Cache_->order, it->second.second);
            return it->second.first;
        }
    }
    const uint64_t cluster = header_.clusterSize();
    if (tableOffset % cluster)
        return Error::format(name(), tableOffset, QStringLiteral("L2 table offset is not cluster aligned"));
    if (tableOffset >= file_->size() || file_->size() - tableOffset < cluster)
        return Error::format(name(), tableOffset, QStringLiteral("L2 table lies beyond the end of the file"));
    QByteArray raw(qsizetype(cluster), Qt::Uninitialized);
    const TraceLayer layer("qcow2 L2 table");
    if (auto read = file_->readExact(tableOffset, std::span(raw.data(), size_t(cluster))); !read)
        return std::move(read).error();
    auto table = std::make_shared<std::vector<uint64_t>>(size_t(cluster / 8));
    for (size_t i = 0; i < table->size(); ++i)
        (*table)[i] = be64(raw.constData() + i * 8);
    std::lock_guard lock(l2Cache_->mutex);
    l2Cache_->order.push_front(tableOffset);
    l2Cache_->tables[tableOffset] = {table, l2Cache_->order.begin()};
    while (l2Cache_->tables.size() > l2Cache_->capacity) {
        l2Cache_->tables.erase(l2Cache_->order.back());
        l2Cache_->order.pop_back();
    }
    return std::shared_ptr<const std::vector<uint64_t>>(table);
}

// One granule: a cluster, or with extended L2 a run of equal subclusters inside one cluster.
Result<Qcow2Image::Piece> Qcow2Image::granuleAt(uint64_t offset) const
{
    const uint64_t clusterSize = header_.clusterSize();
    const uint64_t clusterIndex = offset >> header_.clusterBits;
    const uint64_t inCluster = offset & (clusterSize - 1);
    const uint64_t perL2 = header_.l2Entries();
    const uint64_t l1Index = clusterIndex / perL2;
    const uint64_t l2Index = clusterIndex % perL2;
    Piece piece;
    piece.length = clusterSize - inCluster;
    if (l1Index >= l1_.size())
        return piece; // beyond the table: unallocated
    const uint64_t l1Entry = l1_[size_t(l1Index)];
    const uint64_t tableOffset = l1Entry & kOffsetMask;
    if (tableOffset == 0)
        return piece;
    auto table = l2Table(tableOffset);
    if (!table)
        return std::move(table).error();
    const bool extended = header_.extendedL2();
    const uint64_t entry = (**table)[size_t(extended ? l2Index * 2 : l2Index)];
    const uint64_t entryAt = tableOffset + (extended ? l2Index * 16 : l2Index * 8);
    if (entry & kCompressedBit) {
        piece.kind = Kind::Compressed;
        piece.descriptor = entry & ((1ULL << 62) - 1);
        piece.cluster = clusterIndex;
        return piece;
    }
    const uint64_t host = entry & kOffsetMask;
    if (host && host % clusterSize)
        return Error::format(name(), entryAt, QStringLiteral("image is corrupt: cluster allocation offset 0x%1 unaligned").arg(host, 0, 16));
    if (!extended) {
        if (entry & 1) {
            if (header_.version < 3)
                return Error::format(name(), entryAt, QStringLiteral("zero flag in a version 2 image"));
            piece.kind = Kind::Zero;
            piece.host = host;
            return piece;
        }
        if (host == 0)
            return piece;
        piece.kind = Kind::Normal;
        piece.host = host + inCluster;
        return piece;
    }
    // Extended L2: 32 subclusters; bits 0-31 allocated, 32-63 zero.
    const uint64_t bitmap = (**table)[size_t(l2Index * 2 + 1)];
    const uint64_t sub = clusterSize / 32;
    const unsigned first = unsigned(inCluster / sub);
    auto stateOf = [&](unsigned i) -> int {
        const bool alloc = bitmap & (1ULL << i);
        const bool zero = bitmap & (1ULL << (32 + i));
        return alloc ? (zero ? -1 : 1) : (zero ? 2 : 0);
    };
    const int state = stateOf(first);
    if (state < 0)
        return Error::format(name(), entryAt + 8, QStringLiteral("subcluster %1 is both allocated and zero").arg(first));
    if (state == 1 && host == 0)
        return Error::format(name(), entryAt, QStringLiteral("allocated subcluster without a host cluster"));
    unsigned last = first;
    while (last + 1 < 32 && stateOf(last + 1) == state)
        ++last;
    piece.length = uint64_t(last + 1) * sub - inCluster;
    if (state == 1) {
        piece.kind = Kind::Normal;
        piece.host = host + inCluster;
    } else if (state == 2) {
        piece.kind = Kind::Zero;
    } else if (host) {
        piece.host = host + inCluster; // unallocated subcluster of an allocated cluster: qemu's map shows where
    }
    return piece;
}

Result<Qcow2Image::Piece> Qcow2Image::pieceAt(uint64_t offset, uint64_t limit) const
{
    auto first = granuleAt(offset);
    if (!first)
        return first;
    Piece piece = *first;
    // Merge following granules of the same kind (and, for data, contiguous host bytes) into one
    // run: one pread or memset per run instead of one per cluster.
    while (piece.kind != Kind::Compressed && piece.length < limit && offset + piece.length < size_) {
        auto next = granuleAt(offset + piece.length);
        if (!next)
            return next;
        if (next->kind != piece.kind || (piece.host != 0) != (next->host != 0))
            break;
        if (piece.kind != Kind::Zero && piece.host && next->host != piece.host + piece.length)
            break;
        piece.length += next->length;
    }
    piece.length = std::min(piece.length, size_ - offset);
    return piece;
}

Result<QByteArray> Qcow2Image::decompress(uint64_t descriptor) const
{
    const uint32_t bits = header_.clusterBits;
    const unsigned x = 62 - (bits - 8);
    const uint64_t hostOffset = descriptor & ((1ULL << x) - 1);
    const uint64_t sectors = ((descriptor >> x) & ((1ULL << (bits - 8)) - 1)) + 1;
    uint64_t length = sectors * 512 - (hostOffset & 511);
    if (hostOffset >= file_->size())
        return Error::format(name(), hostOffset, QStringLiteral("compressed cluster lies beyond the end of the file"));
    length = std::min(length, file_->size() - hostOffset); // the last one may end before its sector does
    QByteArray input(qsizetype(length), Qt::Uninitialized);
    const TraceLayer layer("qcow2 compressed cluster");
    auto got = file_->readAt(hostOffset, std::span(input.data(), size_t(length)));
    if (!got)
        return std::move(got).error();
    QByteArray out(qsizetype(header_.clusterSize()), Qt::Uninitialized);
    if (header_.compressionType == 0) {
        thread_local Inflater inflater;
        size_t used = 0;
        size_t produced = 0;
        const auto rc = libdeflate_deflate_decompress_ex(inflater.d, input.constData(), *got, out.data(), size_t(out.size()), &used, &produced);
        if (rc != LIBDEFLATE_SUCCESS || produced != size_t(out.size()))
            return Error::format(name(), hostOffset, QStringLiteral("compressed cluster does not inflate to %1 bytes (deflate error %2)").arg(out.size()).arg(int(rc)));
        return out;
    }
    thread_local ZstdContext zstd;
    ZSTD_DCtx_reset(zstd.d, ZSTD_reset_session_only);
    ZSTD_inBuffer in{input.constData(), *got, 0};
    ZSTD_outBuffer outBuf{out.data(), size_t(out.size()), 0};
    // Streaming: stop once the cluster is full; the sector's tail may belong to another cluster.
    while (outBuf.pos < outBuf.size) {
        const size_t before = outBuf.pos + in.pos;
        const size_t rc = ZSTD_decompressStream(zstd.d, &outBuf, &in);
        if (ZSTD_isError(rc))
            return Error::format(name(), hostOffset, QStringLiteral("zstd: %1").arg(QString::fromLatin1(ZSTD_getErrorName(rc))));
        if (outBuf.pos + in.pos == before)
            return Error::format(name(), hostOffset, QStringLiteral("compressed cluster ends after %1 of %2 bytes").arg(outBuf.pos).arg(out.size()));
    }
    return out;
}

Result<std::shared_ptr<const QByteArray>> Qcow2Image::cluster(uint64_t index, uint64_t descriptor) const
{
    std::shared_future<ClusterCache::Value> future;
    std::promise<ClusterCache::Value> promise;
    bool mine = false;
    {
        std::lock_guard lock(clusterCache_->mutex);
        auto it = clusterCache_->clusters.find(index);
        if (it != clusterCache_->clusters.end()) {
            clusterCache_->order.splice(clusterCache_->order.begin(), clusterCache_->order, it->second.second);
            future = it->second.first;
        } else {
            future = promise.get_future().share();
            clusterCache_->order.push_front(index);
            clusterCache_->clusters[index] = {future, clusterCache_->order.begin()};
            while (clusterCache_->clusters.size() > clusterCache_->capacity) {
                clusterCache_->clusters.erase(clusterCache_->order.back());
                clusterCache_->order.pop_back();
            }
            mine = true;
        }
    }
    if (mine) {
        auto bytes = decompress(descriptor);
        if (bytes)
            promise.set_value(std::make_shared<const QByteArray>(std::move(bytes).value()));
        else
            promise.set_value(std::move(bytes).error());
    }
    return future.get();
}

void Qcow2Image::prefetchAfter(uint64_t clusterIndex) const
{
    // Keep about two clusters per decoding thread in work ahead of a sequential reader, on the
    // process's decode pool (codecs/decode_pool), shared with every other decoder.
    const uint64_t window = uint64_t(DecodePool::shared().threads()) * 2;
    uint64_t from;
    {
        std::lock_guard lock(clusterCache_->mutex);
        const bool sequential = clusterCache_->lastRead != UINT64_MAX && (clusterIndex == clusterCache_->lastRead + 1 || clusterIndex == clusterCache_->lastRead);
        clusterCache_->lastRead = clusterIndex;
        if (!sequential)
            return;
        from = std::max(clusterIndex + 1, clusterCache_->prefetchedUpTo);
        if (from > clusterIndex + window)
            return;
        clusterCache_->prefetchedUpTo = clusterIndex + window + 1;
    }
    const uint64_t lastCluster = size_ ? (size_ - 1) >> header_.clusterBits : 0;
    std::weak_ptr<const Qcow2Image> weak = weak_from_this();
    for (uint64_t c = from; c <= clusterIndex + window && c <= lastCluster; ++c) {
        // Work ahead only: what it finds (an error too) is found again by the read that needs it.
        (void)DecodePool::shared().submit([weak, c]() -> Result<void> {
            auto self = weak.lock();
            if (!self)
                return {};
            auto granule = self->granuleAt(c << self->header_.clusterBits);
            if (granule && granule->kind == Kind::Compressed)
                (void)self->cluster(c, granule->descriptor);
            return {};
        });
    }
}

Result<size_t> Qcow2Image::readAt(uint64_t offset, std::span<char> buf) const
{
    if (offset >= size_)
        return size_t(0);
    const size_t want = size_t(std::min<uint64_t>(buf.size(), size_ - offset));
    size_t done = 0;
    while (done < want) {
        const uint64_t at = offset + done;
        auto piece = pieceAt(at, want - done);
        if (!piece)
            return std::move(piece).error();
        const size_t n = size_t(std::min<uint64_t>(piece->length, want - done));
        char *out = buf.data() + done;
        switch (piece->kind) {
        case Kind::Normal: {
            const TraceLayer layer("qcow2 data cluster");
            auto got = file_->readAt(piece->host, std::span(out, n));
            if (!got)
                return std::move(got).error();
            if (*got != n)
                return Error::format(name(), piece->host, QStringLiteral("data cluster for guest offset %1 lies beyond the end of the file").arg(at));
            break;
        }
        case Kind::Zero:
            std::memset(out, 0, n);
            break;
        case Kind::Unallocated:
            if (backing_ && at < backing_->size()) {
                const size_t fromBacking = size_t(std::min<uint64_t>(n, backing_->size() - at));
                auto got = backing_->readAt(at, std::span(out, fromBacking));
                if (!got)
                    return std::move(got).error();
                std::memset(out + *got, 0, n - *got);
            } else {
                std::memset(out, 0, n); // no backing file, or past its end
            }
            break;
        case Kind::Compressed: {
            auto bytes = cluster(piece->cluster, piece->descriptor);
            if (!bytes)
                return std::move(bytes).error();
            const uint64_t inCluster = at & (header_.clusterSize() - 1);
            std::memcpy(out, (*bytes)->constData() + inCluster, n);
            prefetchAfter(piece->cluster);
            break;
        }
        }
        done += n;
    }
    return done;
}

std::optional<FileExtent> Qcow2Image::fileExtent(uint64_t offset) const
{
    if (offset >= size_)
        return std::nullopt;
    auto piece = pieceAt(offset, 64ULL << 20);
    if (!piece || piece->kind != Kind::Normal)
        return std::nullopt;
    auto extent = file_->fileExtent(piece->host);
    if (!extent)
        return std::nullopt;
    extent->length = std::min(extent->length, piece->length);
    return extent;
}

uint64_t Qcow2Image::zeroRun(uint64_t offset) const
{
    if (offset >= size_)
        return 0;
    auto piece = pieceAt(offset, 1ULL << 40);
    if (!piece)
        return 0;
    if (piece->kind == Kind::Zero)
        return piece->length;
    if (piece->kind != Kind::Unallocated)
        return 0;
    if (!backing_ || offset >= backing_->size())
        return piece->length;
    return std::min(piece->length, backing_->zeroRun(offset));
}

Result<std::vector<DiskExtent>> Qcow2Image::map(uint64_t start, uint64_t length) const
{
    std::vector<DiskExtent> extents;
    const uint64_t end = std::min(size_, start + std::min(length, size_ - std::min(start, size_)));
    for (uint64_t at = start; at < end;) {
        auto piece = pieceAt(at, end - at);
        if (!piece)
            return std::move(piece).error();
        const uint64_t n = std::min(piece->length, end - at);
        DiskExtent e;
        e.start = at;
        e.length = n;
        e.depth = depth_;
        switch (piece->kind) {
        case Kind::Normal:
            e.present = e.data = true;
            e.offset = piece->host;
            appendExtent(extents, e);
            break;
        case Kind::Compressed:
            e.present = e.data = e.compressed = true;
            appendExtent(extents, e);
            break;
        case Kind::Zero:
            e.present = e.zero = true;
            if (piece->host)
                e.offset = piece->host + (at & (header_.clusterSize() - 1));
            appendExtent(extents, e);
            break;
        case Kind::Unallocated:
            if (backing_ && at < backing_->size()) {
                const uint64_t inBacking = std::min(n, backing_->size() - at);
                auto below = backing_->map(at, inBacking);
                if (!below)
                    return std::move(below).error();
                for (const DiskExtent &b : *below)
                    appendExtent(extents, b);
                if (inBacking < n) {
                    DiskExtent rest = e;
                    rest.start = at + inBacking;
                    rest.length = n - inBacking;
                    rest.zero = true;
                    appendExtent(extents, rest);
                }
            } else {
                e.zero = true;
                if (piece->host)
                    e.offset = piece->host;
                appendExtent(extents, e);
            }
            break;
        }
        at += n;
    }
    return extents;
}

QJsonObject Qcow2Image::info() const
{
    QJsonObject o = header_.toJson();
    o[QStringLiteral("format")] = QStringLiteral("qcow2");
    o[QStringLiteral("filename")] = file_->name();
    o[QStringLiteral("file_size")] = double(file_->size());
    QJsonArray warnings;
    if (header_.dirty())
        warnings.append(QStringLiteral("dirty bit set: refcounts may be stale (harmless for reading)"));
    if (header_.corrupt())
        warnings.append(QStringLiteral("corrupt bit set: qemu would refuse to write this image; read it with care"));
    o[QStringLiteral("warnings")] = warnings;
    QJsonArray chain;
    for (const QString &name : chainNames_)
        chain.append(name);
    o[QStringLiteral("backing_chain")] = chain;
    if (backing_)
        o[QStringLiteral("backing")] = backing_->info();
    return o;
}

QJsonObject RawImage::info() const
{
    return QJsonObject{{QStringLiteral("format"), QStringLiteral("raw")}, {QStringLiteral("filename"), file_->name()}, {QStringLiteral("virtual_size"), double(file_->size())}};
}

Result<std::vector<DiskExtent>> RawImage::map(uint64_t start, uint64_t length) const
{
    std::vector<DiskExtent> extents;
    const uint64_t end = std::min(file_->size(), start + length);
    auto extent = file_->fileExtent(start);
    for (uint64_t at = start; at < end;) {
        DiskExtent e;
        e.start = at;
        e.depth = depth_;
        e.present = true;
        // Holes of a sparse file read as zeros: find them like qemu does (SEEK_DATA/SEEK_HOLE).
        uint64_t next = end;
        bool hole = false;
        if (extent) {
            const off_t fileAt = off_t(extent->fileOffset + (at - start));
            const off_t data = ::lseek(extent->fd, fileAt, SEEK_DATA);
            if (data < 0 || data > fileAt) {
                hole = true;
                next = data < 0 ? end : std::min<uint64_t>(end, at + uint64_t(data - fileAt));
            } else {
                const off_t holeAt = ::lseek(extent->fd, fileAt, SEEK_HOLE);
                next = holeAt < 0 ? end : std::min<uint64_t>(end, at + uint64_t(holeAt - fileAt));
            }
        }
        if (next <= at)
            next = end;
        e.length = next - at;
        e.zero = hole;
        e.data = !hole;
        if (!hole)
            e.offset = extent ? extent->fileOffset + (at - start) : at;
        appendExtent(extents, e);
        at = next;
    }
    return extents;
}

} // namespace asc
