// SPDX-License-Identifier: MIT
#pragma once
// Recognises the compression of a file by its first bytes and stacks our decoders over it
// (gzip, xz, zstd, bzip2, lz4, lzop, lzip), again for what comes out, up to a depth limit: a gzip inside a
// gzip inside a gzip... (a stream that decompresses to itself) ends with an error, not forever.
// Formats we have no decoder for (compress, lz4's legacy format, lzma_alone) are left to
// libarchive.

#include "byte_stream.h"

#include <QStringList>

namespace asc {

enum class Compression { None,
                         Gzip,
                         Xz,
                         Zstd,
                         Bzip2,
                         Lz4,
                         Lzop,
                         Lzip };

// From the first kRecogniseBytes bytes.
constexpr qsizetype kRecogniseBytes = 10;
Compression recogniseCompression(QByteArrayView head);
QString compressionName(Compression c);
// Whether `head` starts with a skippable frame (a magic zstd and lz4 share, then a 32-bit
// length; pzstd writes one before each frame).
bool startsSkippableFrame(QByteArrayView head); // "gzip", "xz", "zstd", "bzip2", "lz4", "lzop", "lzip" (libarchive's names)

struct DecodedStream {
    StreamPtr stream; // the innermost output (the source itself when nothing is compressed)
    QStringList filters; // outermost last, as libarchive lists them: {"gzip"}, {"gzip", "xz"} for x.gz.xz
};

// How many of our filters may stack before the input is refused.
constexpr int kMaxFilterDepth = 4;

class GzipSeekRecorder;
class Bzip2PointRecorder;
class FramePointRecorder;
// Where the outermost filter notes its restart points as it is read, by format
// (codecs/gzip_seek_points, codecs/bzip2_points, codecs/frame_points); null: not
// recorded.
struct SeekRecorders {
    GzipSeekRecorder *gzip = nullptr;
    Bzip2PointRecorder *bzip2 = nullptr;
    FramePointRecorder *frames = nullptr; // zstd or lz4
};
// `where` names the file in errors.
Result<DecodedStream> openDecoded(SourcePtr source, int maxDepth = kMaxFilterDepth, SeekRecorders recorders = {});
// The same over any stream (tests, fuzzers).
Result<DecodedStream> openDecoded(StreamPtr stream, const QString &where, int maxDepth = kMaxFilterDepth, SeekRecorders recorders = {});

} // namespace asc
