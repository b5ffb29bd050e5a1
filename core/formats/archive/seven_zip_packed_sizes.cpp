// SPDX-License-Identifier: MIT
#include "seven_zip_packed_sizes.h"
#include "listed_path_key.h"

#include "io/little_endian.h"
#include "libarchive_reader.h"

#include <QHash>
#include <QString>
#include <lzma.h>

#include <algorithm>
#include <cstring>

namespace asc {

namespace {

// The header's property ids (7-Zip's 7zFormat.txt).
enum Id : uint8_t {
    kEnd = 0x00,
    kHeader = 0x01,
    kArchiveProperties = 0x02,
    kAdditionalStreamsInfo = 0x03,
    kMainStreamsInfo = 0x04,
    kFilesInfo = 0x05,
    kPackInfo = 0x06,
    kUnpackInfo = 0x07,
    kSubStreamsInfo = 0x08,
    kSize = 0x09,
    kCrc = 0x0A,
    kFolder = 0x0B,
    kCodersUnpackSize = 0x0C,
    kNumUnpackStream = 0x0D,
    kEmptyStream = 0x0E,
    kName = 0x11,
    kEncodedHeader = 0x17,
};

constexpr uint64_t kSignatureSize = 32;
constexpr uint64_t kMaxHeader = uint64_t(256) << 20;
constexpr uint64_t kMaxCount = uint64_t(1) << 24; // files, folders, streams, coders

// Thrown by the cursor at any malformation; caught once in read().
struct Malformed {};

class Cursor {
public:
    Cursor(const char *data, size_t size)
        : p_(reinterpret_cast<const uint8_t *>(data)),
          end_(p_ + size) {}
    uint8_t byte()
    {
        if (p_ >= end_)
            throw Malformed{};
        return *p_++;
    }
    // 7z's variable-length number: the first byte's high bits say how many bytes follow.
    uint64_t number()
    {
        const uint8_t first = byte();
        uint8_t mask = 0x80;
        uint64_t value = 0;
        for (int i = 0; i < 8; ++i) {
            if ((first & mask) == 0)
                return value + (uint64_t(first & (mask - 1)) << (8 * i));
            value |= uint64_t(byte()) << (8 * i);
            mask >>= 1;
        }
        return value;
    }
    uint64_t count()
    {
        const uint64_t n = number();
        if (n > kMaxCount)
            throw Malformed{};
        return n;
    }
    void skip(uint64_t n)
    {
        if (n > uint64_t(end_ - p_))
            throw Malformed{};
        p_ += n;
    }
    const uint8_t *here() const { return p_; }
    std::vector<bool> bits(uint64_t n)
    {
        std::vector<bool> out(static_cast<size_t>(n));
        uint8_t b = 0;
        for (uint64_t i = 0; i < n; ++i) {
            if (i % 8 == 0)
                b = byte();
            out[size_t(i)] = (b & (0x80 >> (i % 8))) != 0;
        }
        return out;
    }
    // "AllAreDefined" then the bits: which of n items have a CRC; the CRCs skipped.
    std::vector<bool> digests(uint64_t n)
    {
        std::vector<bool> defined = byte() ? std::vector<bool>(size_t(n), true) : bits(n);
        skip(4 * uint64_t(std::count(defined.begin(), defined.end(), true)));
        return defined;
    }

private:
    const uint8_t *p_;
    const uint8_t *end_;
};

struct Coder {
    QByteArray id;
    QByteArray properties;
    uint64_t inStreams = 1;
    uint64_t outStreams = 1;
};

struct Folder {
    std::vector<Coder> coders;
    std::vector<uint64_t> unpackSizes; // one per out stream
    std::vector<bool> boundOut; // out streams feeding another coder
    uint64_t packedStreams = 1;
    uint64_t packed = 0; // the bytes of its packed streams
    uint64_t streams = 1; // files it holds (SubStreamsInfo)
    bool crcDefined = false;
    uint64_t unpackSize() const
    {
        for (size_t i = 0; i < unpackSizes.size(); ++i) {
            if (!boundOut[i])
                return unpackSizes[i];
        }
        throw Malformed{};
    }
};

struct Streams {
    uint64_t packPos = 0;
    std::vector<uint64_t> packSizes;
    std::vector<Folder> folders;
};

Folder readFolder(Cursor &c)
{
    Folder f;
    const uint64_t coders = c.count();
    if (coders == 0 || coders > 64)
        throw Malformed{};
    uint64_t inTotal = 0, outTotal = 0;
    for (uint64_t i = 0; i < coders; ++i) {
        const uint8_t flags = c.byte();
        if (flags & 0x80)
            throw Malformed{};
        Coder coder;
        const uint8_t idSize = flags & 0x0F;
        coder.id = QByteArray(reinterpret_cast<const char *>(c.here()), idSize);
        c.skip(idSize);
        if (flags & 0x10) {
            coder.inStreams = c.count();
            coder.outStreams = c.count();
            if (coder.inStreams > 64 || coder.outStreams > 64)
                throw Malformed{};
        }
        if (flags & 0x20) {
            const uint64_t n = c.count();
            coder.properties = QByteArray(reinterpret_cast<const char *>(c.here()), qsizetype(std::min<uint64_t>(n, 1 << 16)));
            c.skip(n);
        }
        inTotal += coder.inStreams;
        outTotal += coder.outStreams;
        f.coders.push_back(std::move(coder));
    }
    if (outTotal == 0 || inTotal < outTotal - 1)
        throw Malformed{};
    f.boundOut.assign(size_t(outTotal), false);
    for (uint64_t i = 0; i + 1 < outTotal; ++i) {
        c.number(); // in index
        const uint64_t out = c.number();
        if (out >= outTotal)
            throw Malformed{};
        f.boundOut[size_t(out)] = true;
    }
    f.packedStreams = inTotal - (outTotal - 1);
    if (f.packedStreams > 1) {
        for (uint64_t i = 0; i < f.packedStreams; ++i)
            c.number();
    }
    f.unpackSizes.resize(size_t(outTotal));
    return f;
}

void readPackInfo(Cursor &c, Streams &s)
{
    s.packPos = c.number();
    const uint64_t n = c.count();
    for (uint8_t id = c.byte(); id != kEnd; id = c.byte()) {
        if (id == kSize) {
            for (uint64_t i = 0; i < n; ++i)
                s.packSizes.push_back(c.number());
        } else if (id == kCrc) {
            c.digests(n);
        } else {
            throw Malformed{};
        }
    }
    if (s.packSizes.size() != n)
        throw Malformed{};
}

void readUnpackInfo(Cursor &c, Streams &s)
{
    if (c.byte() != kFolder)
        throw Malformed{};
    const uint64_t n = c.count();
    if (c.byte() != 0) // the folders stored elsewhere: 7-Zip never writes that
        throw Malformed{};
    for (uint64_t i = 0; i < n; ++i)
        s.folders.push_back(readFolder(c));
    if (c.byte() != kCodersUnpackSize)
        throw Malformed{};
    for (Folder &f : s.folders) {
        for (uint64_t &size : f.unpackSizes)
            size = c.number();
    }
    for (uint8_t id = c.byte(); id != kEnd; id = c.byte()) {
        if (id != kCrc)
            throw Malformed{};
        const std::vector<bool> defined = c.digests(n);
        for (size_t i = 0; i < s.folders.size(); ++i)
            s.folders[i].crcDefined = defined[i];
    }
    // Each folder's packed streams follow the previous folder's.
    size_t next = 0;
    for (Folder &f : s.folders) {
        for (uint64_t i = 0; i < f.packedStreams; ++i) {
            if (next >= s.packSizes.size())
                throw Malformed{};
            f.packed += s.packSizes[next++];
        }
    }
}

void readSubStreamsInfo(Cursor &c, Streams &s)
{
    uint8_t id = c.byte();
    if (id == kNumUnpackStream) {
        for (Folder &f : s.folders)
            f.streams = c.count();
        id = c.byte();
    }
    if (id == kSize) {
        for (const Folder &f : s.folders) {
            for (uint64_t i = 1; i < f.streams; ++i)
                c.number();
        }
        id = c.byte();
    }
    while (id != kEnd) {
        if (id != kCrc)
            throw Malformed{};
        uint64_t unknown = 0;
        for (const Folder &f : s.folders)
            unknown += (f.streams == 1 && f.crcDefined) ? 0 : f.streams;
        c.digests(unknown);
        id = c.byte();
    }
}

Streams readStreams(Cursor &c)
{
    Streams s;
    for (uint8_t id = c.byte(); id != kEnd; id = c.byte()) {
        if (id == kPackInfo)
            readPackInfo(c, s);
        else if (id == kUnpackInfo)
            readUnpackInfo(c, s);
        else if (id == kSubStreamsInfo)
            readSubStreamsInfo(c, s);
        else
            throw Malformed{};
    }
    return s;
}

// The one folder an encoded header is: LZMA or LZMA2 (what 7-Zip writes), or stored.
std::optional<QByteArray> decodeHeader(const ByteSource &source, const Streams &s)
{
    if (s.folders.size() != 1 || s.folders[0].coders.size() != 1 || s.packSizes.size() != 1)
        return std::nullopt;
    const Folder &f = s.folders[0];
    const Coder &coder = f.coders[0];
    const uint64_t outSize = f.unpackSize();
    const uint64_t inSize = s.packSizes[0];
    if (outSize > kMaxHeader || inSize > kMaxHeader || s.packPos > source.size() || kSignatureSize + s.packPos > source.size() - std::min(source.size(), inSize))
        return std::nullopt;
    QByteArray packed(qsizetype(inSize), Qt::Uninitialized);
    auto got = source.readAt(kSignatureSize + s.packPos, std::span(packed.data(), size_t(inSize)));
    if (!got || *got != inSize)
        return std::nullopt;
    if (coder.id == QByteArray("\x00", 1))
        return inSize == outSize ? std::optional<QByteArray>(packed) : std::nullopt;
    lzma_filter filters[2] = {{LZMA_VLI_UNKNOWN, nullptr}, {LZMA_VLI_UNKNOWN, nullptr}};
    if (coder.id == QByteArray("\x03\x01\x01", 3))
        filters[0].id = LZMA_FILTER_LZMA1;
    else if (coder.id == QByteArray("\x21", 1))
        filters[0].id = LZMA_FILTER_LZMA2;
    else
        return std::nullopt; // encrypted names (AES) or another coder: 7zz lists those
    if (lzma_properties_decode(&filters[0], nullptr, reinterpret_cast<const uint8_t *>(coder.properties.constData()), size_t(coder.properties.size())) != LZMA_OK)
        return std::nullopt;
    lzma_stream z = LZMA_STREAM_INIT;
    const bool ready = lzma_raw_decoder(&z, filters) == LZMA_OK;
    free(filters[0].options);
    if (!ready)
        return std::nullopt;
    lzma_memlimit_set(&z, uint64_t(256) << 20);
    QByteArray out(qsizetype(outSize), Qt::Uninitialized);
    z.next_in = reinterpret_cast<const uint8_t *>(packed.constData());
    z.avail_in = size_t(inSize);
    z.next_out = reinterpret_cast<uint8_t *>(out.data());
    z.avail_out = size_t(outSize);
    lzma_ret rc = LZMA_OK;
    // LZMA in 7z has no end mark: the header is whole when its size is reached.
    while (z.avail_out > 0 && rc == LZMA_OK && z.avail_in > 0)
        rc = lzma_code(&z, LZMA_FINISH);
    const bool whole = z.avail_out == 0 && (rc == LZMA_OK || rc == LZMA_STREAM_END);
    lzma_end(&z);
    return whole ? std::optional<QByteArray>(out) : std::nullopt;
}

} // namespace

std::optional<SevenZipPackedSizes> SevenZipPackedSizes::read(const ByteSource &source)
{
    char signature[kSignatureSize];
    auto got = source.readAt(0, std::span(signature, sizeof signature));
    if (!got || *got != sizeof signature || std::memcmp(signature, "7z\xBC\xAF\x27\x1C", 6) != 0)
        return std::nullopt;
    const uint64_t offset = le64(signature + 12), size = le64(signature + 20);
    if (size == 0 || size > kMaxHeader || offset > source.size() || kSignatureSize + offset > source.size() - std::min(source.size(), size))
        return std::nullopt;
    QByteArray header(qsizetype(size), Qt::Uninitialized);
    got = source.readAt(kSignatureSize + offset, std::span(header.data(), size_t(size)));
    if (!got || *got != size)
        return std::nullopt;
    try {
        for (int depth = 0; header.size() > 0 && uint8_t(header[0]) == kEncodedHeader; ++depth) {
            Cursor c(header.constData() + 1, size_t(header.size() - 1));
            auto decoded = depth < 4 ? decodeHeader(source, readStreams(c)) : std::nullopt;
            if (!decoded)
                return std::nullopt;
            header = std::move(*decoded);
        }
        Cursor c(header.constData(), size_t(header.size()));
        if (c.byte() != kHeader)
            return std::nullopt;
        uint8_t id = c.byte();
        if (id == kArchiveProperties) {
            for (uint8_t type = c.byte(); type != kEnd; type = c.byte())
                c.skip(c.number());
            id = c.byte();
        }
        if (id == kAdditionalStreamsInfo) {
            readStreams(c);
            id = c.byte();
        }
        Streams main;
        if (id == kMainStreamsInfo) {
            main = readStreams(c);
            id = c.byte();
        }
        SevenZipPackedSizes sizes;
        if (id != kFilesInfo)
            return sizes; // no files
        const uint64_t count = c.count();
        std::vector<bool> emptyStream(size_t(count), false);
        std::vector<QByteArray> names;
        for (uint8_t type = c.byte(); type != kEnd; type = c.byte()) {
            const uint64_t length = c.number();
            Cursor property(reinterpret_cast<const char *>(c.here()), size_t(std::min<uint64_t>(length, kMaxHeader)));
            c.skip(length);
            if (type == kEmptyStream) {
                emptyStream = property.bits(count);
            } else if (type == kName) {
                if (property.byte() != 0)
                    return std::nullopt;
                const char16_t *at = reinterpret_cast<const char16_t *>(property.here());
                std::u16string all(at, size_t((length - 1) / 2));
                size_t start = 0;
                for (uint64_t i = 0; i < count; ++i) {
                    const size_t end = all.find(u'\0', start);
                    if (end == std::u16string::npos)
                        return std::nullopt;
                    names.push_back(QString::fromUtf16(all.data() + start, qsizetype(end - start)).toUtf8());
                    start = end + 1;
                }
            }
        }
        if (names.size() != count)
            return std::nullopt;
        sizes.files_.resize(size_t(count));
        size_t folder = 0;
        uint64_t inFolder = 0;
        for (uint64_t i = 0; i < count; ++i) {
            File &file = sizes.files_[size_t(i)];
            QByteArray name = names[size_t(i)];
            name.replace('\\', '/'); // as libarchive lists a name written on Windows
            file.nameHash = listedPathKey(normaliseArchivePath(name));
            if (emptyStream[size_t(i)]) {
                file.packed = 0; // an empty file takes no bytes (a folder is not a file)
                continue;
            }
            while (folder < main.folders.size() && inFolder >= main.folders[folder].streams) {
                ++folder;
                inFolder = 0;
            }
            if (folder >= main.folders.size())
                return std::nullopt;
            if (inFolder++ == 0)
                file.packed = main.folders[folder].packed;
        }
        return sizes;
    } catch (const Malformed &) {
        return std::nullopt;
    }
}

void SevenZipPackedSizes::fill(Entry &entry) const
{
    if (entry.type != EntryType::File || entry.ordinal >= files_.size())
        return;
    const File &file = files_[size_t(entry.ordinal)];
    if (file.nameHash == listedPathKey(entry.path))
        entry.compressedSize = file.packed;
}

} // namespace asc
