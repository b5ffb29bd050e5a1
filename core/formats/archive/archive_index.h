// SPDX-License-Identifier: MIT
#pragma once
// What one full pass over a compressed tarball (tar, cpio or ar) learns, kept so that the next open need not
// repeat it: the listing, where each member's header lies in the decoded stream, and the
// decoder's restart points (gzip seek points, xz and bzip2 blocks). With it a listing is read from the index, and a member is read
// from the seek point before its header instead of from the archive's first byte.
// The encoded index is untrusted input (a file in the user's cache): decodeIndex checks its
// checksum, its counts against its length and the seek points' order before anything is used,
// and what it leads to is checked again when read (the span CRCs, the member's header).

#include "codecs/bzip2_points.h"
#include "codecs/frame_points.h"
#include "codecs/gzip_seek_points.h"
#include "codecs/xz_blocks.h"
#include "io/result.h"
#include "vfs/entry.h"

#include <QStringList>
#include <memory>
#include <vector>

namespace asc {

// The archive formats whose members follow one another in the decoded stream, each behind its
// own header: a member is read by starting the format's reader at that header.
enum class MemberFormat : quint8 { Tar,
                                   Cpio,
                                   Ar };

struct ArchiveIndex {
    QByteArray identity; // of the file it describes (index_cache.h)
    QString libarchiveFormat;
    MemberFormat memberFormat = MemberFormat::Tar;
    QStringList filters;
    std::vector<Entry> entries; // the listing, in archive order
    std::vector<uint64_t> headers; // per entry: its header's offset in the decoded stream
    std::shared_ptr<const GzipSeekIndex> gzip; // null: no seek points (the format has none here)
    std::shared_ptr<const XzBlockIndex> xz; // a multi-block xz file's blocks
    std::shared_ptr<const Bzip2PointIndex> bzip2; // a bzip2 file's blocks (more than one)
    std::shared_ptr<const FramePointIndex> frames; // a zstd or lz4 file's frames (filters says which)
    // Whether a member can be read from a point before it rather than from the first byte.
    bool restartable() const { return gzip || xz || bzip2 || frames; }
    uint64_t decodedSize = 0;
};

QByteArray encodeIndex(const ArchiveIndex &index);
// The file around an encoded payload (header, checksum, compression): for the fuzz target, which
// explores the payload's parser behind the checksum.
QByteArray wrapIndexPayload(const QByteArray &payload);
// `where` names the index file in errors.
Result<ArchiveIndex> decodeIndex(const QByteArray &bytes, const QString &where);
// That `bytes` are an index file of this version, whole (its header, length and checksum), without
// decoding it: what a worker's parent checks before storing the index the worker made. The loader
// decodes and checks all of it, so a full decode there would be the first pass's cost twice.
Result<void> checkIndexFile(const QByteArray &bytes, const QString &where);

} // namespace asc
