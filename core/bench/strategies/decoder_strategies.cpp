// SPDX-License-Identifier: MIT
#include "decoder_strategies.h"

#include "io/counting_source.h"
#include "codecs/decode_pool.h"
#include "codecs/bzip2_stream.h"
#include "codecs/filter_chain.h"
#include "codecs/gzip_stream.h"
#include "codecs/lz4_stream.h"
#include "codecs/xz_stream.h"
#include "codecs/zstd_stream.h"

#include <QThread>
#include <archive.h>
#include <cstring>
#include <libdeflate.h>
#include <map>
#include <mutex>
#include <zlib.h>

namespace asc {

namespace {

Bzip2Stream::Options bzip2Options(unsigned threads, size_t chunk)
{
    Bzip2Stream::Options options;
    options.threads = threads;
    options.chunk = chunk;
    return options;
}

constexpr size_t kOutput = size_t(1) << 20; // decompressed bytes per call, the same for all

Compression compressionOf(const ReadTarget &target)
{
    char head[kRecogniseBytes] = {};
    auto got = target.source->readAt(0, head);
    return got ? recogniseCompression(QByteArrayView(head, qsizetype(*got))) : Compression::None;
}

// The decompressed size, found once per target by our own decoders (the runner checks every
// strategy delivers exactly this many bytes).
uint64_t decodedSize(const ReadTarget &target)
{
    static std::mutex mutex;
    // By name and size, not by address: a source freed and another made at its address must
    // not inherit its size.
    static std::map<std::pair<QString, uint64_t>, uint64_t> sizes;
    const auto key = std::make_pair(target.source->name(), target.source->size());
    {
        std::lock_guard lock(mutex);
        if (auto it = sizes.find(key); it != sizes.end())
            return it->second;
    }
    uint64_t total = 0;
    if (auto decoded = openDecoded(target.source, 1)) {
        std::vector<char> out(kOutput);
        for (;;) {
            auto got = decoded->stream->read(out);
            if (!got || *got == 0)
                break;
            total += *got;
        }
    }
    std::lock_guard lock(mutex);
    sizes[key] = total;
    return total;
}

class DecoderStrategy : public ReadStrategy {
public:
    DecoderStrategy(QString name, QString description, Compression input)
        : name_(std::move(name)),
          description_(std::move(description)),
          input_(input)
    {
    }
    QString name() const override { return name_; }
    QString description() const override { return description_; }
    QString group() const override { return QStringLiteral("decompression"); }
    QString notApplicable(const ReadTarget &target) const override
    {
        const Compression c = compressionOf(target);
        if (input_ == Compression::None ? c == Compression::None : c != input_)
            return input_ == Compression::None ? QStringLiteral("not applicable: the target is not gzip, xz, zstd, bzip2 or lz4")
                                               : QStringLiteral("not applicable: the target is not %1").arg(compressionName(input_));
        return {};
    }
    uint64_t expectedBytes(const ReadTarget &target) const override { return decodedSize(target); }

private:
    QString name_;
    QString description_;
    Compression input_;
};

// One of our filters (codecs/) over the target, read to the end.
class FilterStrategy final : public DecoderStrategy {
public:
    using Make = std::function<StreamPtr(StreamPtr, const QString &, size_t)>;
    FilterStrategy(QString name, QString description, Compression input, Make make)
        : DecoderStrategy(std::move(name), std::move(description), input),
          make_(std::move(make))
    {
    }
    Result<ReadOutcome> run(const ReadTarget &target, size_t buffer, const CancelFlag &cancel, const ByteConsumer &consume) const override
    {
        auto counted = std::make_shared<CountingSource>(target.source);
        StreamPtr stream = make_(std::make_unique<SourceStream>(counted), target.source->name(), buffer);
        std::vector<char> out(kOutput);
        ReadOutcome outcome;
        for (;;) {
            if (cancel.isCancelled())
                return Error::cancelled();
            auto got = stream->read(out);
            if (!got)
                return std::move(got).error();
            if (*got == 0)
                break;
            if (consume)
                consume(std::span<const char>(out.data(), *got));
            outcome.bytes += *got;
        }
        outcome.syscalls = counted->reads();
        return outcome;
    }

private:
    Make make_;
};

// zlib's inflate, members one after another (windowBits 15 + 16: gzip only).
class ZlibStrategy final : public DecoderStrategy {
public:
    ZlibStrategy()
        : DecoderStrategy(QStringLiteral("inflate-zlib"), QStringLiteral("zlib's inflate (what gzip, libarchive and most tools use), compressed input read N bytes at a time"),
                          Compression::Gzip)
    {
    }
    Result<ReadOutcome> run(const ReadTarget &target, size_t buffer, const CancelFlag &cancel, const ByteConsumer &consume) const override
    {
        z_stream z{};
        if (inflateInit2(&z, 15 + 16) != Z_OK)
            return Error::make(ErrorKind::System, target.source->name(), QStringLiteral("inflateInit2 failed"));
        std::vector<char> in(buffer), out(kOutput);
        ReadOutcome outcome;
        uint64_t offset = 0;
        int rc = Z_OK;
        for (;;) {
            if (cancel.isCancelled()) {
                inflateEnd(&z);
                return Error::cancelled();
            }
            if (z.avail_in == 0) {
                auto got = target.source->readAt(offset, in);
                ++outcome.syscalls;
                if (!got) {
                    inflateEnd(&z);
                    return std::move(got).error();
                }
                if (*got == 0)
                    break;
                offset += *got;
                z.next_in = reinterpret_cast<Bytef *>(in.data());
                z.avail_in = uInt(*got);
            }
            z.next_out = reinterpret_cast<Bytef *>(out.data());
            z.avail_out = uInt(out.size());
            rc = inflate(&z, Z_NO_FLUSH);
            const size_t n = out.size() - z.avail_out;
            if (consume && n)
                consume(std::span<const char>(out.data(), n));
            outcome.bytes += n;
            if (rc == Z_STREAM_END) {
                if (z.avail_in == 0 && offset == target.source->size())
                    break;
                inflateReset(&z); // the next member
            } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
                inflateEnd(&z);
                return Error::format(target.source->name(), offset, QStringLiteral("zlib: %1").arg(QString::fromUtf8(z.msg ? z.msg : "inflate error")));
            }
        }
        inflateEnd(&z);
        return outcome;
    }
};

// libdeflate: the fastest whole-buffer inflate; the file is read into memory (N bytes per read),
// then each member decompressed at once into a buffer of its recorded size.
class LibdeflateStrategy final : public DecoderStrategy {
public:
    LibdeflateStrategy()
        : DecoderStrategy(QStringLiteral("inflate-libdeflate"),
                          QStringLiteral("libdeflate, whole members in memory (the file read N bytes at a time first; files up to 1 GiB)"), Compression::Gzip)
    {
    }
    QString notApplicable(const ReadTarget &target) const override
    {
        if (QString why = DecoderStrategy::notApplicable(target); !why.isEmpty())
            return why;
        return target.source->size() > (uint64_t(1) << 30) ? QStringLiteral("not applicable: larger than 1 GiB (it decompresses in memory)") : QString();
    }
    Result<ReadOutcome> run(const ReadTarget &target, size_t buffer, const CancelFlag &cancel, const ByteConsumer &consume) const override
    {
        ReadOutcome outcome;
        std::vector<char> file(target.source->size());
        for (uint64_t at = 0; at < file.size();) {
            if (cancel.isCancelled())
                return Error::cancelled();
            auto got = target.source->readAt(at, std::span(file.data() + at, std::min<size_t>(buffer, file.size() - at)));
            ++outcome.syscalls;
            if (!got)
                return std::move(got).error();
            if (*got == 0)
                break;
            at += *got;
        }
        std::unique_ptr<libdeflate_decompressor, decltype(&libdeflate_free_decompressor)> d(libdeflate_alloc_decompressor(), &libdeflate_free_decompressor);
        // The output buffer: sized by the last member's ISIZE (the whole output of a one-member
        // file), grown when a member needs more; not zero-filled (it is written before it is read).
        std::unique_ptr<char[]> out;
        size_t capacity = 0;
        uint32_t isize = 0;
        if (file.size() >= 4)
            std::memcpy(&isize, file.data() + file.size() - 4, 4);
        size_t want = std::max<size_t>(isize, 1 << 20) + 64;
        size_t at = 0;
        while (at + 18 <= file.size() && uint8_t(file[at]) == 0x1f && uint8_t(file[at + 1]) == 0x8b) {
            if (cancel.isCancelled())
                return Error::cancelled();
            for (;;) {
                if (capacity < want) {
                    out.reset(new char[want]);
                    capacity = want;
                }
                size_t used = 0, produced = 0;
                const auto rc = libdeflate_gzip_decompress_ex(d.get(), file.data() + at, file.size() - at, out.get(), capacity, &used, &produced);
                if (rc == LIBDEFLATE_INSUFFICIENT_SPACE && want < (size_t(8) << 30)) {
                    want *= 2;
                    continue;
                }
                if (rc != LIBDEFLATE_SUCCESS)
                    return Error::format(target.source->name(), at, QStringLiteral("libdeflate: corrupt gzip member"));
                if (consume)
                    consume(std::span<const char>(out.get(), produced));
                outcome.bytes += produced;
                at += used;
                if (cancel.isCancelled())
                    return Error::cancelled();
                break;
            }
        }
        return outcome;
    }
};

// libarchive's own decompression (its "raw" format), as bsdtar decodes.
class LibarchiveFilterStrategy final : public DecoderStrategy {
public:
    LibarchiveFilterStrategy()
        : DecoderStrategy(QStringLiteral("libarchive-filter"), QStringLiteral("libarchive's own filters (zlib, liblzma single-threaded, libzstd, libbz2, its own lz4), input blocks of N"),
                          Compression::None)
    {
    }
    Result<ReadOutcome> run(const ReadTarget &target, size_t buffer, const CancelFlag &cancel, const ByteConsumer &consume) const override
    {
        struct Feed {
            const ByteSource *source;
            std::vector<char> block;
            uint64_t offset = 0;
            uint64_t reads = 0;
        } feed{target.source.get(), std::vector<char>(buffer)};
        std::unique_ptr<archive, decltype(&archive_read_free)> a(archive_read_new(), &archive_read_free);
        archive_read_support_filter_all(a.get());
        archive_read_support_format_raw(a.get());
        auto read = [](archive *, void *data, const void **out) -> la_ssize_t {
            auto *f = static_cast<Feed *>(data);
            auto got = f->source->readAt(f->offset, f->block);
            ++f->reads;
            if (!got)
                return -1;
            f->offset += *got;
            *out = f->block.data();
            return la_ssize_t(*got);
        };
        if (archive_read_open(a.get(), &feed, nullptr, read, nullptr) != ARCHIVE_OK)
            return Error::format(target.source->name(), 0, QStringLiteral("libarchive: %1").arg(QString::fromUtf8(archive_error_string(a.get()))));
        archive_entry *entry = nullptr;
        if (archive_read_next_header(a.get(), &entry) != ARCHIVE_OK)
            return Error::format(target.source->name(), 0, QStringLiteral("libarchive: %1").arg(QString::fromUtf8(archive_error_string(a.get()))));
        std::vector<char> out(kOutput);
        ReadOutcome outcome;
        for (;;) {
            if (cancel.isCancelled())
                return Error::cancelled();
            const la_ssize_t n = archive_read_data(a.get(), out.data(), out.size());
            if (n < 0)
                return Error::format(target.source->name(), feed.offset, QStringLiteral("libarchive: %1").arg(QString::fromUtf8(archive_error_string(a.get()))));
            if (n == 0)
                break;
            if (consume)
                consume(std::span<const char>(out.data(), size_t(n)));
            outcome.bytes += uint64_t(n);
        }
        outcome.syscalls = feed.reads;
        return outcome;
    }
};

} // namespace

std::vector<StrategyPtr> makeDecoderStrategies()
{
    return {
        std::make_shared<ZlibStrategy>(),
        std::make_shared<FilterStrategy>(QStringLiteral("inflate-isal"), QStringLiteral("ISA-L's igzip inflate (our gzip filter), compressed input read N bytes at a time"),
                                         Compression::Gzip,
                                         [](StreamPtr in, const QString &where, size_t n) {
                                             GzipPieces::Options one;
                                             one.threads = 1; // never cut
                                             return std::make_unique<GzipStream>(std::move(in), where, n, one);
                                         }),
        std::make_shared<FilterStrategy>(QStringLiteral("inflate-isal-pieces"),
                                         QStringLiteral("ISA-L on a thread per core, each large member cut into pieces at its deflate blocks (our gzip filter; the default from %1 cores on)").arg(GzipPieces::kMinCores),
                                         Compression::Gzip,
                                         [](StreamPtr in, const QString &where, size_t n) {
                                             GzipPieces::Options pieces;
                                             pieces.threads = decodeThreads();
                                             return std::make_unique<GzipStream>(std::move(in), where, n, pieces);
                                         }),
        std::make_shared<LibdeflateStrategy>(),
        std::make_shared<FilterStrategy>(QStringLiteral("xz-1thread"), QStringLiteral("liblzma, one thread (as xz -T1 and libarchive decode), input read N bytes at a time"),
                                         Compression::Xz,
                                         [](StreamPtr in, const QString &where, size_t n) { return std::make_unique<XzStream>(std::move(in), where, 1, n); }),
        std::make_shared<FilterStrategy>(QStringLiteral("xz-mt"), QStringLiteral("liblzma's multi-threaded decoder, a thread per core (our xz filter): blocks of multi-block streams in parallel"),
                                         Compression::Xz,
                                         [](StreamPtr in, const QString &where, size_t n) { return std::make_unique<XzStream>(std::move(in), where, 0, n); }),
        std::make_shared<FilterStrategy>(QStringLiteral("zstd"), QStringLiteral("libzstd's streaming decoder (our zstd filter), input read N bytes at a time"), Compression::Zstd,
                                         [](StreamPtr in, const QString &where, size_t n) { return std::make_unique<ZstdStream>(std::move(in), where, n); }),
        std::make_shared<FilterStrategy>(QStringLiteral("bzip2-1thread"), QStringLiteral("libbz2, one block after another on one thread (as bzip2 -d and libarchive decode), input read N bytes at a time"),
                                         Compression::Bzip2,
                                         [](StreamPtr in, const QString &where, size_t n) { return std::make_unique<Bzip2Stream>(std::move(in), where, bzip2Options(1, n)); }),
        std::make_shared<FilterStrategy>(QStringLiteral("bzip2-mt"), QStringLiteral("libbz2 on a thread per core, each block cut out at its magic (our bzip2 filter), input read N bytes at a time"),
                                         Compression::Bzip2,
                                         [](StreamPtr in, const QString &where, size_t n) { return std::make_unique<Bzip2Stream>(std::move(in), where, bzip2Options(0, n)); }),
        std::make_shared<FilterStrategy>(QStringLiteral("lz4"), QStringLiteral("liblz4's frame decoder (our lz4 filter), input read N bytes at a time"), Compression::Lz4,
                                         [](StreamPtr in, const QString &where, size_t n) { return std::make_unique<Lz4Stream>(std::move(in), where, n); }),
        std::make_shared<LibarchiveFilterStrategy>(),
    };
}

} // namespace asc
