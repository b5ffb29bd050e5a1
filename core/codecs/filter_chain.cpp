// SPDX-License-Identifier: MIT
#include "filter_chain.h"

#include "bzip2_stream.h"
#include "gzip_stream.h"
#include "lz4_stream.h"
#include "lzop_stream.h"
#include "xz_stream.h"
#include "zstd_stream.h"

namespace asc {

Compression recogniseCompression(QByteArrayView head)
{
    auto starts = [&](std::initializer_list<unsigned char> magic) {
        if (size_t(head.size()) < magic.size())
            return false;
        size_t i = 0;
        for (unsigned char m : magic)
            if (uint8_t(head[qsizetype(i++)]) != m)
                return false;
        return true;
    };
    if (starts({0x1f, 0x8b, 0x08}))
        return Compression::Gzip;
    if (starts({0xfd, '7', 'z', 'X', 'Z', 0x00}))
        return Compression::Xz;
    if (starts({0x28, 0xb5, 0x2f, 0xfd}))
        return Compression::Zstd;
    if (starts({0x04, 0x22, 0x4d, 0x18}))
        return Compression::Lz4;
    if (starts({0x89, 'L', 'Z', 'O', 0x00, 0x0d, 0x0a, 0x1a, 0x0a}))
        return Compression::Lzop;
    // "LZIP" and a version byte: any version, so an unsupported one fails as lzip's error.
    if (head.size() >= 5 && starts({'L', 'Z', 'I', 'P'}))
        return Compression::Lzip;
    // "BZh", the level, then a block or (an empty stream) the end marker: "BZh" alone is text.
    if (head.size() >= 10 && starts({'B', 'Z', 'h'}) && head[3] >= '1' && head[3] <= '9') {
        const auto magic = head.sliced(4, 6);
        if (magic == QByteArrayView("\x31\x41\x59\x26\x53\x59", 6) || magic == QByteArrayView("\x17\x72\x45\x38\x50\x90", 6))
            return Compression::Bzip2;
    }
    return Compression::None;
}

QString compressionName(Compression c)
{
    switch (c) {
    case Compression::Gzip: return QStringLiteral("gzip");
    case Compression::Xz: return QStringLiteral("xz");
    case Compression::Zstd: return QStringLiteral("zstd");
    case Compression::Bzip2: return QStringLiteral("bzip2");
    case Compression::Lz4: return QStringLiteral("lz4");
    case Compression::Lzop: return QStringLiteral("lzop");
    case Compression::Lzip: return QStringLiteral("lzip");
    case Compression::None: break;
    }
    return QStringLiteral("none");
}

bool startsSkippableFrame(QByteArrayView head)
{
    return head.size() >= 8 && (uint8_t(head[0]) & 0xf0) == 0x50 && uint8_t(head[1]) == 0x2a && uint8_t(head[2]) == 0x4d && uint8_t(head[3]) == 0x18;
}

namespace {

// The compression of what `stream` starts with. Skippable frames are looked past: the frame
// after them says which it is.
Result<Compression> recognise(PeekStream &stream)
{
    auto head = stream.peek(kRecogniseBytes);
    if (!head)
        return std::move(head).error();
    Compression c = recogniseCompression(*head);
    constexpr uint32_t kMaxSkippable = 1 << 20;
    size_t skip = 0;
    for (int frames = 0; c == Compression::None && frames < 4; ++frames) {
        auto bytes = stream.peek(skip + 8);
        if (!bytes)
            return std::move(bytes).error();
        if (size_t(bytes->size()) < skip + 8)
            break;
        if (!startsSkippableFrame(QByteArrayView(*bytes).sliced(qsizetype(skip))))
            break;
        const auto *b = reinterpret_cast<const uint8_t *>(bytes->constData()) + skip;
        const uint32_t length = uint32_t(b[4]) | uint32_t(b[5]) << 8 | uint32_t(b[6]) << 16 | uint32_t(b[7]) << 24;
        if (length > kMaxSkippable)
            break;
        skip += 8 + length;
        auto next = stream.peek(skip + size_t(kRecogniseBytes));
        if (!next)
            return std::move(next).error();
        const Compression after = recogniseCompression(QByteArrayView(*next).sliced(qsizetype(std::min<size_t>(skip, size_t(next->size())))));
        if (after == Compression::Zstd || after == Compression::Lz4)
            c = after;
    }
    return c;
}

} // namespace

Result<DecodedStream> openDecoded(SourcePtr source, int maxDepth, SeekRecorders recorders)
{
    const QString where = source->name();
    return openDecoded(std::make_unique<SourceStream>(std::move(source)), where, maxDepth, recorders);
}

Result<DecodedStream> openDecoded(StreamPtr stream, const QString &where, int maxDepth, SeekRecorders recorders)
{
    DecodedStream decoded;
    auto peekable = std::make_unique<PeekStream>(std::move(stream));
    for (int depth = 0;; ++depth) {
        auto recognised = recognise(*peekable);
        if (!recognised)
            return std::move(recognised).error();
        const Compression c = *recognised;
        if (c == Compression::None)
            break;
        if (depth == maxDepth)
            return Error::format(where, std::nullopt,
                                 QStringLiteral("compressed more than %1 times over (%2, then %3 again): refused as a decompression bomb")
                                     .arg(maxDepth)
                                     .arg(decoded.filters.join(QStringLiteral(" in ")), compressionName(c)));
        const QString layer = depth == 0 ? where : QStringLiteral("%1 (inside %2)").arg(where, decoded.filters.first());
        StreamPtr next;
        switch (c) {
        case Compression::Gzip: {
            auto gzip = std::make_unique<GzipStream>(std::move(peekable), layer);
            if (recorders.gzip && depth == 0)
                gzip->recordSeekPoints(recorders.gzip); // before its first byte: the file's own offsets
            next = std::move(gzip);
            break;
        }
        case Compression::Xz: next = std::make_unique<XzStream>(std::move(peekable), layer); break;
        case Compression::Zstd: {
            auto zstd = std::make_unique<ZstdStream>(std::move(peekable), layer);
            zstd->recordFrames(depth == 0 ? recorders.frames : nullptr);
            next = std::move(zstd);
            break;
        }
        case Compression::Bzip2: {
            Bzip2Stream::Options options;
            options.recorder = depth == 0 ? recorders.bzip2 : nullptr; // the file's own offsets
            next = std::make_unique<Bzip2Stream>(std::move(peekable), layer, std::move(options));
            break;
        }
        case Compression::Lz4: {
            auto lz4 = std::make_unique<Lz4Stream>(std::move(peekable), layer);
            lz4->recordFrames(depth == 0 ? recorders.frames : nullptr);
            next = std::move(lz4);
            break;
        }
        case Compression::Lzop: next = std::make_unique<LzopStream>(std::move(peekable), layer); break;
        case Compression::Lzip:
            next = std::make_unique<XzStream>(std::move(peekable), layer, 1, size_t(1) << 20, XzStream::Container::Lzip);
            break;
        case Compression::None: break;
        }
        decoded.filters.prepend(compressionName(c));
        peekable = std::make_unique<PeekStream>(std::move(next));
    }
    decoded.stream = std::move(peekable);
    return decoded;
}

} // namespace asc
