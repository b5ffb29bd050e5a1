// SPDX-License-Identifier: MIT
#include "libarchive_reader.h"
#include "rar5_file_crypt.h"
#include "archive_passwords.h"
#include "legacy_names.h"
#include "name_charset.h"

#include "ascii_mbrtowc.h"
#include "io/byte_text.h"
#include "codecs/filter_chain.h"
#include "codecs/readahead.h"
#include "io/trace.h"
#include "vfs/problems.h"

#include <algorithm>
#include <archive.h>
#include <archive_entry.h>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace asc {

// Big enough that a 1 GiB uncompressed entry streams in few system calls, small enough to be
// cheap when one of these is opened per nested archive.
// Keeps the fast mbrtowc libarchive's tar reader calls per byte of every name in the program.
[[maybe_unused]] __attribute__((used)) static bool (*const kFastMbrtowc)() = &asciiMbrtowcInUse;

static constexpr size_t kBlockSize = 1 << 20;
// While headers are read (listing), reads are small: libarchive reads through whatever a block
// holds, so a 1 MiB block would copy the data of every file under 1 MiB too (a tar listing read
// almost all of its bytes); with small ones it skips what it does not need, as GNU tar does.
// Entry data is read in whole blocks.
static constexpr size_t kHeaderReadSize = 16 << 10;
static constexpr size_t kFirstReadSize = 64 << 10;
// Compressed inputs from this size on are decoded on a second thread.
static constexpr uint64_t kThreadedInput = uint64_t(4) << 20;

LibarchiveReader::LibarchiveReader(SourcePtr source, Mode mode)
    : source_(std::move(source)),
      mode_(mode)
{
}

LibarchiveReader::~LibarchiveReader()
{
    if (archive_)
        archive_read_free(archive_);
    if (!typed_.isEmpty())
        ::explicit_bzero(typed_.data(), size_t(typed_.size()));
}

Error LibarchiveReader::error(const QString &what) const
{
    if (sourceError_)
        return *sourceError_;
    const char *text = archive_ ? archive_error_string(archive_) : nullptr;
    QString message = what;
    if (text && *text)
        message += QStringLiteral(": ") + QString::fromUtf8(text);
    return Error::format(source_->name(), position_, message);
}

// Encrypted zip entries (ZipCrypto, WinZip AES) are decrypted by libarchive with the first of
// these that fits; libarchive copies them. When none fits (or none was given) and the user can be
// asked (the CLI on a terminal), libarchive asks through the callback, up to three times.
static void addPassphrases(archive *a, LibarchiveReader *reader, archive_passphrase_callback *ask)
{
    for (const QByteArray &password : archivePasswords())
        archive_read_add_passphrase(a, password.constData());
    if (canAskForPasswords())
        archive_read_set_passphrase_callback(a, reader, ask);
}

const char *LibarchiveReader::askPassphrase(archive *, void *self)
{
    auto *reader = static_cast<LibarchiveReader *>(self);
    if (!reader->typed_.isEmpty())
        ::explicit_bzero(reader->typed_.data(), size_t(reader->typed_.size()));
    reader->typed_.clear();
    if (reader->asked_ >= 3)
        return nullptr;
    const bool wrong = reader->asked_ > 0 || !archivePasswords().isEmpty();
    ++reader->asked_;
    std::optional<QByteArray> typed = askForPassword(reader->source_->name(), wrong);
    if (!typed)
        return nullptr;
    rememberTypedPassword(*typed);
    reader->typed_ = std::move(*typed);
    return reader->typed_.constData();
}

Result<std::unique_ptr<LibarchiveReader>> LibarchiveReader::openMemberAt(SourcePtr source, StreamPtr decoded, MemberFormat format,
                                                                         const QByteArray &nameCharset)
{
    std::unique_ptr<LibarchiveReader> reader(new LibarchiveReader(std::move(source), Mode::Archives));
    archive *a = archive_read_new();
    if (!a)
        return Error::system(reader->source_->name(), QStringLiteral("archive_read_new"), ENOMEM);
    reader->archive_ = a;
    switch (format) {
    case MemberFormat::Tar:
        archive_read_support_format_tar(a);
        break;
    case MemberFormat::Cpio:
        archive_read_support_format_cpio(a);
        break;
    case MemberFormat::Ar:
        // libarchive knows an ar archive by its leading magic only; a GNU name table before the
        // member is not there, so a long name does not match the index and the archive is read
        // from its start instead.
        archive_read_support_format_ar(a);
        decoded = std::make_unique<PrefixedStream>(QByteArrayLiteral("!<arch>\n"), std::move(decoded));
        break;
    }
    if (!nameCharset.isEmpty() && !isKnownCharset(nameCharset))
        return Error::make(ErrorKind::Usage, reader->source_->name(), QStringLiteral("cannot decode names from '%1'").arg(QString::fromLatin1(nameCharset)));
    reader->nameCharset_ = nameCharset;
    addPassphrases(a, reader.get(), &LibarchiveReader::askPassphrase);
    reader->decoded_ = std::make_unique<Readahead>(std::move(decoded), false);
    reader->ourFilters_ = {QStringLiteral("decoded")};
    archive_read_set_callback_data(a, reader.get());
    archive_read_set_read_callback(a, &LibarchiveReader::readCallback);
    archive_read_set_skip_callback(a, &LibarchiveReader::skipCallback);
    if (archive_read_open1(a) != ARCHIVE_OK)
        return reader->error(QStringLiteral("cannot open archive at the index's seek point"));
    reader->headerReadSize_ = kHeaderReadSize;
    return reader;
}

Result<uint64_t> LibarchiveReader::drainDecoded()
{
    if (!decoded_) // libarchive decodes it (compress, lzma_alone): its size is not known here
        return Error::make(ErrorKind::Unsupported, source_->name(), QStringLiteral("decoded by libarchive"));
    for (;;) {
        auto block = decoded_->next();
        if (!block)
            return std::move(block).error();
        if (block->empty())
            return decodedOut_;
        decodedOut_ += block->size();
    }
}

Result<std::unique_ptr<LibarchiveReader>> LibarchiveReader::open(SourcePtr source, Mode mode, const QByteArray &nameCharset, const SeekRecorders *recorders)
{
    std::unique_ptr<LibarchiveReader> reader(new LibarchiveReader(std::move(source), mode));
    archive *a = archive_read_new();
    if (!a)
        return Error::system(reader->source_->name(), QStringLiteral("archive_read_new"), ENOMEM);
    reader->archive_ = a;
    archive_read_support_filter_all(a);
    if (mode == Mode::Archives) {
        archive_read_support_format_all(a);
        addPassphrases(a, reader.get(), &LibarchiveReader::askPassphrase);
    } else {
        archive_read_support_format_raw(a);
        archive_read_support_format_empty(a); // a stream that decodes to nothing (next() makes its entry)
    }
    // Names are decoded by us (legacy_names.h), not by libarchive's hdrcharset: a name that does
    // not decode keeps its bytes there, where libarchive's conversion left it without a name.
    if (!nameCharset.isEmpty() && mode == Mode::Archives) {
        if (!isKnownCharset(nameCharset))
            return Error::make(ErrorKind::Usage, reader->source_->name(), QStringLiteral("cannot decode names from '%1'").arg(QString::fromLatin1(nameCharset)));
        reader->nameCharset_ = nameCharset;
    }
    // gzip, xz, zstd, bzip2, lz4, lzop and lzip are ours (codecs/filter_chain), decoded
    // ahead on another core for inputs big enough to be worth a thread; libarchive parses what
    // comes out, and still decodes what we have no decoder for (compress, lzma_alone, lz4 legacy).
    auto decoded = openDecoded(reader->source_, kMaxFilterDepth, recorders ? *recorders : SeekRecorders{});
    if (!decoded)
        return std::move(decoded).error();
    if (!decoded->filters.isEmpty()) {
        const bool threaded = reader->source_->size() >= kThreadedInput;
        reader->decoded_ = std::make_unique<Readahead>(std::move(decoded->stream), threaded);
        reader->ourFilters_ = decoded->filters;
    }
    archive_read_set_callback_data(a, reader.get());
    archive_read_set_read_callback(a, &LibarchiveReader::readCallback);
    archive_read_set_skip_callback(a, &LibarchiveReader::skipCallback);
    // Our decoded output is a stream: no seeking in it (libarchive reads zip and 7z in it as
    // streams, as it does from a pipe).
    if (!reader->decoded_)
        archive_read_set_seek_callback(a, &LibarchiveReader::seekCallback);
    if (archive_read_open1(a) != ARCHIVE_OK)
        return reader->error(QStringLiteral("cannot open archive"));
    // A filter libarchive decodes itself (lzip, compress, ...) reads compressed bytes through
    // us: those come in large reads, headers or not.
    reader->headerReadSize_ = archive_filter_count(a) > 1 ? kBlockSize : kHeaderReadSize;
    return reader;
}

ssize_t LibarchiveReader::readCallback(archive *, void *self, const void **buffer)
{
    auto *r = static_cast<LibarchiveReader *>(self);
    if (r->decoded_) {
        auto block = r->decoded_->next();
        if (!block) {
            r->sourceError_ = block.error();
            return -1;
        }
        r->position_ = r->decoded_->consumed();
        r->decodedOut_ += block->size();
        *buffer = block->data();
        return static_cast<ssize_t>(block->size());
    }
    const TraceLayer layer("libarchive");
    // Made on first use and not zero-filled: a decoded stream never needs it, and while headers
    // are read only their pages are touched (an open archive costs its reads, not 1 MiB). A small
    // file gets a block of its own size: each probe of it allocates no more.
    if (!r->block_) {
        r->blockSize_ = size_t(std::clamp<uint64_t>(r->source_->size(), kFirstReadSize, kBlockSize));
        r->block_.reset(new char[r->blockSize_]);
    }
    // The bidders see what bsdtar's first 64 KiB read shows them (an LHA self-extractor's first
    // header lies past 20 KiB of program, beyond the search a 16 KiB read lets libarchive make).
    const size_t want = std::min(r->blockSize_, r->position_ == 0 ? std::max(r->readSize_, kFirstReadSize) : r->readSize_);
    auto got = r->source_->readAt(r->position_, std::span(r->block_.get(), want));
    if (!got) {
        r->sourceError_ = got.error();
        return -1;
    }
    *buffer = r->block_.get();
    r->position_ += *got;
    return static_cast<ssize_t>(*got);
}

int64_t LibarchiveReader::skipCallback(archive *, void *self, int64_t request)
{
    auto *r = static_cast<LibarchiveReader *>(self);
    if (r->decoded_)
        return 0; // a decoded stream is read through, never skipped
    const uint64_t size = r->source_->size();
    const uint64_t room = size > r->position_ ? size - r->position_ : 0;
    const uint64_t step = std::min<uint64_t>(uint64_t(std::max<int64_t>(0, request)), room);
    r->position_ += step;
    return static_cast<int64_t>(step);
}

int64_t LibarchiveReader::seekCallback(archive *, void *self, int64_t offset, int whence)
{
    auto *r = static_cast<LibarchiveReader *>(self);
    int64_t base = 0;
    switch (whence) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = static_cast<int64_t>(r->position_); break;
    case SEEK_END: base = static_cast<int64_t>(r->source_->size()); break;
    default: return ARCHIVE_FATAL;
    }
    const int64_t target = base + offset;
    if (target < 0)
        return ARCHIVE_FATAL;
    r->position_ = uint64_t(target);
    return target;
}

QByteArray LibarchiveReader::intern(const char *name)
{
    if (!name || !*name)
        return {};
    const QByteArray key(name);
    auto it = names_.constFind(key);
    if (it != names_.constEnd())
        return *it;
    names_.insert(key, key);
    return key;
}

// Most paths are already clean: spot that without building a new string.
// Already in the form entries use (relative, no empty, "." or ".." parts, no trailing '/'):
// one pass over the name, as this runs for every entry.
static bool isClean(const QByteArray &raw)
{
    const char *p = raw.constData();
    const qsizetype n = raw.size();
    if (n == 0)
        return false;
    // At the start of each part: it must not be empty, "." or "..".
    for (qsizetype i = 0; i < n;) {
        if (p[i] == '/')
            return false;
        if (p[i] == '.' && (i + 1 == n || p[i + 1] == '/' || (p[i + 1] == '.' && (i + 2 == n || p[i + 2] == '/'))))
            return false;
        const void *slash = std::memchr(p + i, '/', size_t(n - i));
        if (!slash)
            return true;
        i = static_cast<const char *>(slash) - p + 1;
        if (i == n)
            return false; // a trailing '/'
    }
    return true;
}

QByteArray normaliseArchivePath(const QByteArray &raw, bool *unsafe, bool *absolute)
{
    if (absolute)
        *absolute = raw.startsWith('/');
    if (isClean(raw)) {
        if (unsafe)
            *unsafe = false;
        return raw;
    }
    bool bad = false;
    QByteArray out;
    out.reserve(raw.size());
    qsizetype i = 0;
    while (i < raw.size()) {
        qsizetype slash = raw.indexOf('/', i);
        if (slash < 0)
            slash = raw.size();
        const QByteArrayView part(raw.constData() + i, slash - i);
        if (part == "..")
            bad = true;
        if (!part.isEmpty() && part != ".") {
            if (!out.isEmpty())
                out += '/';
            out += part;
        }
        i = slash + 1;
    }
    if (unsafe)
        *unsafe = bad;
    return out;
}

static EntryType typeOf(archive_entry *raw)
{
    if (archive_entry_hardlink(raw))
        return EntryType::Hardlink;
    switch (archive_entry_filetype(raw)) {
    case AE_IFDIR: return EntryType::Dir;
    case AE_IFLNK: return EntryType::Symlink;
    case AE_IFCHR: return EntryType::CharDev;
    case AE_IFBLK: return EntryType::BlockDev;
    case AE_IFIFO: return EntryType::Fifo;
    case AE_IFSOCK: return EntryType::Socket;
    default: return EntryType::File;
    }
}

static QString stripCompressionSuffix(const QString &name)
{
    static const char *suffixes[] = {".gz", ".bz2", ".xz", ".zst", ".lz4", ".lz", ".lzma", ".Z", ".z", ".uu", ".lzo", ".grz", ".lrz"};
    QString base = name.section(QLatin1Char('/'), -1).section(QStringLiteral("!/"), -1);
    for (const char *s : suffixes) {
        if (base.endsWith(QLatin1String(s)) && base.size() > qsizetype(qstrlen(s)))
            return base.chopped(qsizetype(qstrlen(s)));
    }
    return base + QStringLiteral(".out");
}

void LibarchiveReader::fill(archive_entry *raw, Entry &entry)
{
    entry = Entry{};
    entry.type = typeOf(raw);
    mtree_ = (archive_format(archive_) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_MTREE;
    const bool zip = (archive_format(archive_) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_ZIP;
    if (mode_ == Mode::SingleCompressed) {
        entry.path = stripCompressionSuffix(source_->name()).toUtf8();
    } else {
        const char *path = archive_entry_pathname(raw);
        if (!path)
            path = archive_entry_pathname_utf8(raw);
        entry.path = normaliseArchivePath(decodeLegacyName(QByteArray(path ? path : ""), nameCharset_, zip), &entry.unsafePath);
    }
    if (entry.type == EntryType::Hardlink) {
        // A link to an absolute path names something outside the archive: refused.
        bool unsafe = false, absolute = false;
        entry.target = normaliseArchivePath(decodeLegacyName(QByteArray(archive_entry_hardlink(raw)), nameCharset_, zip), &unsafe, &absolute);
        entry.unsafePath = entry.unsafePath || unsafe || absolute;
    } else if (entry.type == EntryType::Symlink) {
        const char *target = archive_entry_symlink(raw);
        entry.target = decodeLegacyName(QByteArray(target ? target : ""), nameCharset_, zip);
    }
    // cpio keeps a hardlink group's data on its last member: such a hardlink carries content.
    if (entry.type == EntryType::File || entry.type == EntryType::Hardlink)
        entry.size = archive_entry_size_is_set(raw) ? uint64_t(std::max<la_int64_t>(0, archive_entry_size(raw)))
                                                    : kUnknown;
    entry.mode = uint32_t(archive_entry_perm(raw)) & 07777;
    // An mtree line without "mode=" leaves the mode 0; bsdtar then uses the usual defaults.
    if (mtree_ && entry.mode == 0 && !(archive_entry_mode(raw) & 07777))
        entry.mode = entry.type == EntryType::Dir ? 0755 : 0644;
    entry.uid = uint32_t(archive_entry_uid(raw));
    entry.gid = uint32_t(archive_entry_gid(raw));
    entry.uname = intern(archive_entry_uname(raw));
    entry.gname = intern(archive_entry_gname(raw));
    if (archive_entry_mtime_is_set(raw)) {
        entry.hasMtime = true;
        entry.mtime = archive_entry_mtime(raw);
        entry.mtimeNsec = uint32_t(std::max(0L, archive_entry_mtime_nsec(raw)));
    }
    if (entry.type == EntryType::CharDev || entry.type == EntryType::BlockDev) {
        entry.rdevMajor = uint32_t(archive_entry_rdevmajor(raw));
        entry.rdevMinor = uint32_t(archive_entry_rdevminor(raw));
    }
    entry.encrypted = archive_entry_is_encrypted(raw) != 0;
    entry.ordinal = entriesRead_;
}

QString LibarchiveReader::entryName(const Entry &entry) const
{
    if (entry.path.isEmpty()) // libarchive may drop the name of an entry it cannot use
        return source_->name() + QStringLiteral(" (entry %1)").arg(entriesRead_ + 1);
    return source_->name() + QStringLiteral("!/") + bytesToText(entry.path);
}

// Consecutive damaged headers are one problem: a run of garbage is skipped 512 bytes at a time.
static constexpr int kMaxRetries = 1 << 20;

Result<bool> LibarchiveReader::next(Entry &entry)
{
    if (ended_) // libarchive is not asked again after its end
        return false;
    archive_entry *raw = nullptr;
    int rc = ARCHIVE_OK;
    std::optional<uint64_t> damagedAt;
    int retries = 0;
    readSize_ = headerReadSize_;
    for (;;) {
        const int64_t before = archive_read_header_position(archive_);
        const uint64_t consumedBefore = position_;
        rc = archive_read_next_header(archive_, &raw);
        if (rc != ARCHIVE_RETRY)
            break;
        if (!damagedAt) {
            const char *text = archive_error_string(archive_);
            // libarchive notes where the header it gave up on began.
            const int64_t at = archive_read_header_position(archive_);
            damagedAt = at >= 0 ? uint64_t(at) : position_;
            reportProblem(Error::format(source_->name(), *damagedAt,
                                        QStringLiteral("damaged header, skipped%1").arg(text && *text ? QStringLiteral(" (%1)").arg(QString::fromUtf8(text)) : QString())));
        }
        // libarchive moves on at every retry; a reader that does not would loop forever.
        if (++retries >= kMaxRetries || (archive_read_header_position(archive_) == before && position_ == consumedBefore && retries > 64))
            return error(QStringLiteral("cannot find the next valid header"));
    }
    if (rc == ARCHIVE_EOF) {
        ended_ = true;
        // A compressed stream that decodes to nothing (xz good-0-empty, an empty .zst) is still
        // one file, of 0 bytes, as gzip -d, xz -d and bsdtar make it; libarchive's raw format
        // has no header to give for it.
        if (mode_ != Mode::SingleCompressed || entriesRead_ > 0 || !decompresses())
            return false;
        entry = Entry{};
        entry.type = EntryType::File;
        entry.path = stripCompressionSuffix(source_->name()).toUtf8();
        entry.size = 0;
        entry.mode = 0644;
        entry.ordinal = entriesRead_++;
        content_.startEmpty();
        unreadable_ = false;
        return true;
    }
    if (rc == ARCHIVE_FATAL || !raw)
        return error(QStringLiteral("cannot read entry header"));
    fill(raw, entry);
    unreadable_ = false;
    {
        const la_int64_t header = archive_read_header_position(archive_);
        headerPosition_ = header >= 0 ? uint64_t(header) : kUnknown;
    }
    // libarchive 3.6.2 does not see RAR5's file encryption record: without this, a stored
    // encrypted member would read as its ciphertext.
    if (archive_format(archive_) == ARCHIVE_FORMAT_RAR_V5 && entry.type == EntryType::File && !entry.encrypted && headerPosition_ != kUnknown && !decoded_ &&
        archive_filter_count(archive_) == 1 && archive_filter_code(archive_, 0) == ARCHIVE_FILTER_NONE &&
        rar5FileIsEncrypted(*source_, headerPosition_).value_or(false))
        entry.encrypted = true;
    if (mode_ == Mode::Archives) {
        const char *rawPath = archive_entry_pathname(raw);
        if (!rawPath)
            rawPath = archive_entry_pathname_utf8(raw);
        if (!rawPath || !*rawPath) {
            // As bsdtar: an entry without a name cannot be listed or extracted; say so.
            const la_int64_t at = archive_read_header_position(archive_);
            reportProblem(Error::format(source_->name(), at >= 0 ? std::optional<uint64_t>(uint64_t(at)) : std::nullopt,
                                        QStringLiteral("entry %1 has an empty name: skipped").arg(entriesRead_ + 1)));
        }
    }
    if (rc == ARCHIVE_WARN || rc == ARCHIVE_FAILED) {
        const char *text = archive_error_string(archive_);
        const QString what = text && *text ? QString::fromUtf8(text) : QStringLiteral("libarchive reported a problem");
        const la_int64_t at = archive_read_header_position(archive_);
        std::optional<uint64_t> offset = at >= 0 ? std::optional<uint64_t>(uint64_t(at)) : std::nullopt;
        if (rc == ARCHIVE_FAILED) {
            entry.problem = what.toUtf8();
            unreadable_ = true;
            reportProblem(Error::format(entryName(entry), offset, QStringLiteral("unreadable entry: %1").arg(what)));
        } else {
            reportProblem(Error::format(entryName(entry), offset, QStringLiteral("warning: %1").arg(what)));
        }
    }
    // In an unfiltered tar, cpio or ar stream the content follows its header byte for byte, and
    // the header has been consumed: the content can then be read as a slice of the archive
    // itself (a .deb's data.tar.xz is a part of the .deb, not a copy).
    const int base = archive_format(archive_) & ARCHIVE_FORMAT_BASE_MASK;
    if ((base == ARCHIVE_FORMAT_TAR || base == ARCHIVE_FORMAT_CPIO || base == ARCHIVE_FORMAT_AR) && entry.type == EntryType::File && !unreadable_ &&
        entry.size != kUnknown && archive_entry_sparse_count(raw) == 0 && !decoded_ && archive_filter_count(archive_) == 1 &&
        archive_filter_code(archive_, 0) == ARCHIVE_FILTER_NONE) {
        const la_int64_t at = archive_filter_bytes(archive_, 0);
        if (at >= 0 && uint64_t(at) + entry.size <= source_->size())
            entry.dataOffset = uint64_t(at);
    }
    content_.start(entry.size, archive_entry_sparse_count(raw) > 0);
    contentPath_ = entry.path;
    ++entriesRead_;
    return true;
}

Result<EntryContent::Block> LibarchiveReader::nextBlock()
{
    EntryContent::Block block;
    const void *data = nullptr;
    size_t size = 0;
    la_int64_t offset = 0;
    readSize_ = kBlockSize;
    const int rc = archive_read_data_block(archive_, &data, &size, &offset);
    if (rc == ARCHIVE_EOF) {
        block.end = true;
        return block;
    }
    // A warning while data is read is a checksum mismatch (zip, 7z, LHA, RAR) or a decoder that
    // gave up: whatever it handed back is not the entry's content.
    if (rc == ARCHIVE_WARN) {
        // The stream itself is whole: the next entry can still be read, as bsdtar goes on.
        Error mismatch = contentError(QStringLiteral("the entry's data does not check out"));
        mismatch.kind = ErrorKind::Checksum;
        return mismatch;
    }
    if (rc != ARCHIVE_OK) {
        // libarchive's words for a password that does not decrypt the entry (its check value or
        // WinZip AES's verifier fails): the entry is encrypted, and none given opens it.
        const char *text = archive_error_string(archive_);
        if (text && (std::strcmp(text, "Incorrect passphrase") == 0 || std::strstr(text, "Passphrase required"))) {
            const qsizetype given = archivePasswords().size();
            Error wrong = Error::make(ErrorKind::Password, contentPath_.isEmpty() ? source_->name() : source_->name() + QStringLiteral("!/") + bytesToText(contentPath_),
                                      given == 0 ? QStringLiteral("entry is encrypted: a password is needed (--password-file FILE or ARCHIVESCOPE_PASSWORD)")
                                                 : QStringLiteral("wrong password: none of the %1 given decrypts this entry").arg(given));
            return wrong;
        }
        return contentError(QStringLiteral("cannot read the entry's data"));
    }
    block.data = static_cast<const char *>(data);
    block.size = size;
    block.offset = offset;
    return block;
}

Error LibarchiveReader::contentError(const QString &what) const
{
    if (sourceError_)
        return *sourceError_;
    const char *text = archive_error_string(archive_);
    QString message = QStringLiteral("at byte %1 of the entry: %2").arg(content_.position()).arg(what);
    if (text && *text)
        message += QStringLiteral(": ") + QString::fromUtf8(text);
    const QString name = contentPath_.isEmpty() ? source_->name() : source_->name() + QStringLiteral("!/") + bytesToText(contentPath_);
    return Error::format(name, position_, message);
}

// Built on libarchive's blocks rather than archive_read_data(): that one stops at the last data
// block, so a sparse member ending in a hole (or all hole) came out short or empty.
Result<size_t> LibarchiveReader::read(std::span<char> out)
{
    if (unreadable_)
        return contentError(QStringLiteral("libarchive cannot use it"));
    return content_.read(out, *this);
}

QString LibarchiveReader::formatName() const
{
    const char *name = archive_format_name(archive_);
    return name ? QString::fromUtf8(name) : QString();
}

int LibarchiveReader::formatCode() const
{
    return archive_format(archive_);
}

bool LibarchiveReader::hasEncryptedEntries() const
{
    return archive_read_has_encrypted_entries(archive_) > 0;
}

QStringList LibarchiveReader::filterNames() const
{
    QStringList names;
    const int count = archive_filter_count(archive_);
    for (int i = 0; i < count; ++i) {
        const int code = archive_filter_code(archive_, i);
        if (code != ARCHIVE_FILTER_NONE)
            names << QString::fromUtf8(archive_filter_name(archive_, i));
    }
    return names + ourFilters_; // libarchive's (if any) decode inside ours
}

bool LibarchiveReader::decompresses() const
{
    // rpm and uu unwrap, they do not decompress: an rpm whose payload is gone holds nothing.
    for (const QString &name : filterNames())
        if (name != QLatin1String("rpm") && name != QLatin1String("uu"))
            return true;
    return false;
}

} // namespace asc
