// SPDX-License-Identifier: MIT
// The archive index loader (formats/archive/archive_index) over arbitrary bytes: the bytes as an
// index file, and (to reach the parser behind the checksum) as an index's payload wrapped the way
// an index is written. What decodes is then used: a read through its seek points over a small
// gzip stream (and xz blocks, bzip2 blocks, zstd and lz4 frames over the same bytes), which must
// end in bytes or an error, never a crash or a hang. Bounded: 64 KiB read.

#include "formats/archive/archive_index.h"
#include "codecs/bzip2_points.h"
#include "codecs/frame_points.h"
#include "codecs/gzip_seek_points.h"
#include "codecs/xz_blocks.h"
#include "io/memory_source.h"

#include <zlib.h>

using namespace asc;

namespace {

// A gzip stream of 256 KiB of text, made once.
QByteArray gzipSample()
{
    QByteArray text;
    for (int i = 0; text.size() < (256 << 10); ++i)
        text += QByteArray::number(i * 7919) + (i % 7 ? " seek " : " point\n");
    QByteArray out(text.size() + 1024, '\0');
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY);
    z.next_in = reinterpret_cast<Bytef *>(text.data());
    z.avail_in = uInt(text.size());
    z.next_out = reinterpret_cast<Bytef *>(out.data());
    z.avail_out = uInt(out.size());
    deflate(&z, Z_FINISH);
    out.truncate(qsizetype(z.total_out));
    deflateEnd(&z);
    return out;
}

void use(const QByteArray &file)
{
    auto index = decodeIndex(file, QStringLiteral("fuzz.idx"));
    if (!index)
        return;
    if (index->xz) {
        // Blocks over bytes that are not xz: refused as implausible, or each block an error.
        static const SourcePtr bytes = std::make_shared<MemorySource>(gzipSample(), QStringLiteral("fuzz.tar.xz"));
        if (auto stream = openXzAt(bytes, index->xz, index->decodedSize / 2, QStringLiteral("fuzz.tar.xz"))) {
            char buffer[16384];
            (void)(*stream)->read(buffer);
        }
    }
    // bzip2 blocks and zstd/lz4 frames over bytes that are neither: refused, or errors.
    static const SourcePtr other = std::make_shared<MemorySource>(gzipSample(), QStringLiteral("fuzz.tar.bz2"));
    char scratch[16384];
    if (index->bzip2) {
        if (auto stream = openBzip2At(other, index->bzip2, index->decodedSize / 2, other->name()))
            (void)(*stream)->read(scratch);
    }
    if (index->frames) {
        for (FrameFormat format : {FrameFormat::Zstd, FrameFormat::Lz4}) {
            if (auto stream = openFramesAt(other, format, index->frames, index->decodedSize / 2, other->name()))
                (void)(*stream)->read(scratch);
        }
    }
    if (!index->gzip)
        return;
    static const SourcePtr source = std::make_shared<MemorySource>(gzipSample(), QStringLiteral("fuzz.tar.gz"));
    for (uint64_t offset : {uint64_t(0), index->decodedSize / 2, index->decodedSize ? index->decodedSize - 1 : 0}) {
        auto stream = openGzipAt(source, index->gzip, offset, QStringLiteral("fuzz.tar.gz"));
        if (!stream)
            continue;
        char buffer[16384];
        for (int i = 0; i < 4; ++i) {
            auto got = (*stream)->read(buffer);
            if (!got || *got == 0)
                break;
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    use(bytes);
    use(wrapIndexPayload(bytes));
    return 0;
}
