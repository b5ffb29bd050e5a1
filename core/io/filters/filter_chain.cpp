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

Result<DecodedStream> openDecoded(SourcePtr source, int maxDepth, GzipSeekRecorder *recorder)
{
    const QString where = source->name();
    return openDecoded(std::make_unique<SourceStream>(std::move(source)), where, maxDepth, recorder);
}

Result<DecodedStream> openDecoded(StreamPtr stream, const QString &where, int maxDepth, GzipSeekRecorder *recorder)
{
    DecodedStream decoded;
    auto peekable = std::make_unique<PeekStream>(std::move(stream));
    for (int depth = 0;; ++depth) {
        auto head = peekable->peek(kRecogniseBytes);
        if (!head)
            return std::move(head).error();
        const Compression c = recogniseCompression(*head);
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
            if (recorder && depth == 0)
                gzip->recordSeekPoints(recorder); // before its first byte: the file's own offsets
            next = std::move(gzip);
            break;
        }
        case Compression::Xz: next = std::make_unique<XzStream>(std::move(peekable), layer); break;
        case Compression::Zstd: next = std::make_unique<ZstdStream>(std::move(peekable), layer); break;
        case Compression::Bzip2: next = std::make_unique<Bzip2Stream>(std::move(peekable), layer); break;
        case Compression::Lz4: next = std::make_unique<Lz4Stream>(std::move(peekable), layer); break;
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
