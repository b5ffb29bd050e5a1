// SPDX-License-Identifier: MIT
#pragma once
// One libarchive read handle fed from our ByteSource through its read/seek/skip callbacks, so
// nested archives need no temporary files. Not thread safe; blocks on the source.

#include "archive_index.h"
#include "entry_content.h"
#include "io/byte_source.h"
#include "vfs/entry.h"

#include <QByteArray>
#include <QHash>
#include <QStringList>
#include <sys/types.h>
#include <memory>
#include <vector>

struct archive;
struct archive_entry;

namespace asc {

class Readahead;
struct SeekRecorders;
class ByteStream;
using StreamPtr = std::unique_ptr<ByteStream>;

class LibarchiveReader : private EntryContent::Blocks {
public:
    enum class Mode {
        Archives, // every archive format and every filter
        SingleCompressed // the "raw" format: one compressed file (disk.img.xz) as one entry
    };

    // Opens the handle; fails when libarchive recognises nothing. Names that are not UTF-8 are
    // decoded from `nameCharset` (e.g. "KOI8-R"; legacy_names.h), by default a zip's from CP437;
    // a name that does not decode keeps its bytes.
    static Result<std::unique_ptr<LibarchiveReader>> open(SourcePtr source, Mode mode, const QByteArray &nameCharset = {},
                                                          const SeekRecorders *recorders = nullptr);
    // An archive of `format` read from `decoded`, the archive's decoded bytes from a member's
    // header on (an index's restart point): that format only, no filters. `source` is the
    // archive, for names and errors.
    static Result<std::unique_ptr<LibarchiveReader>> openMemberAt(SourcePtr source, StreamPtr decoded, MemberFormat format,
                                                                  const QByteArray &nameCharset = {});
    // Where the last header read starts in the decoded stream (pax and long-name headers first).
    uint64_t headerPosition() const { return headerPosition_; }
    // Reads what is left of the decoded stream after the archive's end (a tar's padding, what
    // follows): a gzip's seek points cover all of it. Its total size.
    Result<uint64_t> drainDecoded();
    ~LibarchiveReader() override;
    LibarchiveReader(const LibarchiveReader &) = delete;
    LibarchiveReader &operator=(const LibarchiveReader &) = delete;

    // The next header, filled into `entry`; false at the end of the archive. As bsdtar does:
    // a warning is reported (vfs/problems.h) and the entry kept; a damaged header libarchive
    // skips (RETRY) is reported with its offset and reading goes on; an entry libarchive cannot
    // use (FAILED) is returned marked unreadable, with the reason; only FATAL is an error.
    Result<bool> next(Entry &entry);
    // Reads content of the current entry, holes of sparse entries as zeros, up to the size the
    // header gives (a trailing hole too); 0 at its end. Exactly what the decoder produced: an
    // entry that ends short of its size, runs past it, or whose read warned (a checksum
    // mismatch) is an error naming the entry and the offset.
    Result<size_t> read(std::span<char> out);

    QString formatName() const;
    int formatCode() const; // archive_format(): ARCHIVE_FORMAT_* (0 before the first header)
    // Whether the format says some entry is encrypted (archive_read_has_encrypted_entries).
    bool hasEncryptedEntries() const;
    QStringList filterNames() const;
    bool decompresses() const; // a filter that decompresses (not only rpm's or uu's unwrapping)
    uint64_t entriesRead() const { return entriesRead_; }
    // Bytes of the underlying source consumed so far (for expansion-ratio limits).
    uint64_t sourcePosition() const { return position_; }
    const SourcePtr &source() const { return source_; }

private:
    LibarchiveReader(SourcePtr source, Mode mode);
    Error error(const QString &what) const;
    // EntryContent::Blocks: libarchive's own blocks of the current entry (no copy).
    Result<EntryContent::Block> nextBlock() override;
    uint64_t inputPosition() const override { return position_; }
    Error contentError(const QString &what) const override; // names the current entry and where in it
    QString entryName(const Entry &entry) const;
    QByteArray intern(const char *name);
    void fill(archive_entry *raw, Entry &entry);

    static ssize_t readCallback(archive *, void *self, const void **buffer);
    static int64_t skipCallback(archive *, void *self, int64_t request);
    static int64_t seekCallback(archive *, void *self, int64_t offset, int whence);

    SourcePtr source_;
    Mode mode_;
    QByteArray nameCharset_; // legacy names are decoded from it (empty: the format's default)
    archive *archive_ = nullptr;
    std::unique_ptr<char[]> block_; // made on first read
    size_t blockSize_ = 0; // kBlockSize, or less for a smaller file
    size_t readSize_ = 16 << 10; // how much of block_ the next read fills: small for headers, whole for data
    size_t headerReadSize_ = 16 << 10; // readSize_ while headers are read
    // libarchive's passphrase callback: asks the user (a terminal) once the given ones failed.
    static const char *askPassphrase(archive *, void *self);
    QByteArray typed_; // the last answer, valid while libarchive tries it
    int asked_ = 0;
    uint64_t position_ = 0;
    uint64_t decodedOut_ = 0; // bytes of decoded_ handed to libarchive
    uint64_t headerPosition_ = kUnknown;
    uint64_t entriesRead_ = 0;
    std::optional<Error> sourceError_;
    std::unique_ptr<Readahead> decoded_; // our decoders' output, when the file is gzip, xz or zstd
    QStringList ourFilters_;
    QHash<QByteArray, QByteArray> names_; // owner/group names, shared between entries
    EntryContent content_; // the current entry's bytes as read() hands them out
    QByteArray contentPath_; // the current entry, for errors
    bool mtree_ = false;
    bool unreadable_ = false;
    bool ended_ = false; // libarchive said EOF
};

// Normalises an archive path: strips leading "/" and "./", collapses "//" and "/./", drops a
// trailing "/". Sets `unsafe` when the path has ".." components, `absolute` when it began with
// "/". An absolute name is extracted below the target, as bsdtar, GNU tar and 7-Zip do (LHA
// archivers on Windows and the Mac store "/dir/file" routinely); ".." is never followed.
QByteArray normaliseArchivePath(const QByteArray &raw, bool *unsafe = nullptr, bool *absolute = nullptr);

} // namespace asc
