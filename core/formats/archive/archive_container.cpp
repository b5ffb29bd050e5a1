// SPDX-License-Identifier: MIT
#include "archive_container.h"

#include "archive_entry_source.h"
#include "compression_magic.h"
#include "index_cache.h"
#include "seven_zip_packed_sizes.h"
#include "zip_packed_sizes.h"
#include "codecs/bzip2_points.h"
#include "codecs/filter_chain.h"
#include "codecs/frame_points.h"
#include "codecs/gzip_seek_points.h"
#include "io/byte_text.h"
#include "io/slice_source.h"
#include "name_charset.h"
#include "archive_passwords.h"
#include "vfs/problems.h"

#include <QJsonArray>
#include <archive.h>
#include <optional>
#include <vector>

namespace asc {

ArchiveContainer::ArchiveContainer(SourcePtr source, LibarchiveReader::Mode mode)
    : source_(std::move(source)),
      mode_(mode),
      charset_(currentNameCharset())
{
}

Result<std::unique_ptr<LibarchiveReader>> ArchiveContainer::reader() const
{
    return LibarchiveReader::open(source_, mode_, charset_);
}

Result<bool> ArchiveContainer::next(LibarchiveReader &reader, Entry &entry) const
{
    auto more = reader.next(entry);
    if (more && *more && mode_ == LibarchiveReader::Mode::SingleCompressed) {
        entry.size = facts_.size.value_or(kUnknown);
        if (facts_.mtime && !entry.hasMtime) {
            entry.hasMtime = true;
            entry.mtime = *facts_.mtime;
        }
    }
    return more;
}

// Single streams up to this size are decoded to count their bytes, up to this many.
static constexpr uint64_t kCountBelow = 1 << 20;
static constexpr uint64_t kCountOutputLimit = 1ULL << 30;

// The current entry's bytes counted by reading them; nullopt past the limit.
static Result<std::optional<uint64_t>> countContent(LibarchiveReader &reader)
{
    std::vector<char> scratch(1 << 16);
    uint64_t total = 0;
    while (total <= kCountOutputLimit) {
        auto got = reader.read(scratch);
        if (!got)
            return std::move(got).error();
        if (*got == 0)
            return std::optional<uint64_t>(total);
        total += *got;
    }
    return std::optional<uint64_t>();
}

// libarchive's long names ("GNU tar format", "ZIP 2.0 (deflation)") to the short ones `ls` users know.
static QString shortFormatName(const QString &libarchiveName, LibarchiveReader::Mode mode)
{
    if (mode == LibarchiveReader::Mode::SingleCompressed)
        return QStringLiteral("compressed");
    const QString lower = libarchiveName.toLower();
    // Longer names first: "7-zip" contains "zip", "xar" and "warc" contain "ar".
    static const std::pair<const char *, const char *> known[] = {
        {"7-zip", "7z"},
        {"rar5", "rar5"},
        {"rar", "rar"},
        {"xar", "xar"},
        {"warc", "warc"},
        {"tar", "tar"},
        {"zip", "zip"},
        {"iso9660", "iso9660"},
        {"cpio", "cpio"},
        {"cab", "cab"},
        {"lha", "lha"},
        {"mtree", "mtree"},
        {"empty", "empty"},
        {"ar", "ar"},
    };
    for (const auto &[needle, name] : known) {
        if (lower.contains(QLatin1String(needle)))
            return QString::fromLatin1(name);
    }
    return libarchiveName.isEmpty() ? QStringLiteral("archive") : libarchiveName;
}

// The formats whose members an index can start at (libarchive's format code).
static std::optional<MemberFormat> memberFormatOf(int code)
{
    switch (code & ARCHIVE_FORMAT_BASE_MASK) {
    case ARCHIVE_FORMAT_TAR:
        return MemberFormat::Tar;
    case ARCHIVE_FORMAT_CPIO:
        return MemberFormat::Cpio;
    case ARCHIVE_FORMAT_AR:
        return MemberFormat::Ar;
    default:
        return std::nullopt;
    }
}

Result<ContainerPtr> ArchiveContainer::open(SourcePtr source, LibarchiveReader::Mode mode)
{
    std::shared_ptr<ArchiveContainer> container(new ArchiveContainer(std::move(source), mode));
    // A compressed tar read before: what the index keeps is enough to open it, nothing decoded.
    if (mode == LibarchiveReader::Mode::Archives && index_cache::enabled()) {
        char head[kRecogniseBytes] = {};
        auto got = container->source_->readAt(0, std::span(head, sizeof head));
        if (got && hasCompressionMagic(QByteArrayView(head, qsizetype(*got)))) {
            if (auto loaded = index_cache::load(*container->source_)) {
                container->libarchiveFormat_ = loaded->libarchiveFormat;
                container->filters_ = loaded->filters;
                container->formatName_ = shortFormatName(container->libarchiveFormat_, mode);
                container->indexable_ = true;
                container->memberFormat_ = loaded->memberFormat;
                container->index_ = std::move(loaded);
                return ContainerPtr(container);
            }
        }
    }
    // Problems of the first entry are reported when the archive is listed, not twice.
    const ProblemScope quiet([](const Error &) {});
    auto r = container->reader();
    if (!r)
        return std::move(r).error();
    if (mode == LibarchiveReader::Mode::SingleCompressed)
        container->facts_ = readCompressedFacts(*container->source_);
    // The format name is only known once the first header has been read.
    Entry first;
    auto firstHeader = (*r)->next(first);
    if (!firstHeader)
        return std::move(firstHeader).error();
    if (mode == LibarchiveReader::Mode::SingleCompressed && *firstHeader && container->source_->size() <= kCountBelow) {
        // A small stream is decoded once to know its size: a trailer's or index's claim is not
        // the content (lzip trailers can be faked), and a damaged stream fails here with the
        // decoder's own error and offset.
        auto counted = countContent(**r);
        if (!counted)
            return std::move(counted).error();
        if (*counted)
            container->facts_.size = **counted;
    }
    container->libarchiveFormat_ = (*r)->formatName();
    container->filters_ = (*r)->filterNames();
    container->formatName_ = shortFormatName(container->libarchiveFormat_, mode);
    if (mode == LibarchiveReader::Mode::SingleCompressed && !container->filters_.isEmpty())
        container->formatName_ = container->filters_.first();
    // A compressed tar, cpio or ar (read again from its first byte for every member otherwise)
    // keeps an index.
    const std::optional<MemberFormat> members = memberFormatOf((*r)->formatCode());
    container->indexable_ = mode == LibarchiveReader::Mode::Archives && *firstHeader && !container->filters_.isEmpty() && members &&
                            index_cache::enabled();
    container->memberFormat_ = members.value_or(MemberFormat::Tar);

    return ContainerPtr(container);
}

std::shared_ptr<const ArchiveIndex> ArchiveContainer::index() const
{
    const std::lock_guard lock(indexMutex_);
    return index_;
}

// Publishes a running first pass for indexSoFar(), and withdraws it however the pass ends.
class ArchiveContainer::FirstPassScope {
public:
    FirstPassScope(ArchiveContainer &container, const FirstPass &pass)
        : container_(container)
    {
        const std::lock_guard lock(container_.indexMutex_);
        if (!container_.pass_) // two listings at once: the first one's points serve
            container_.pass_ = mine_ = &pass;
    }
    ~FirstPassScope()
    {
        const std::lock_guard lock(container_.indexMutex_);
        if (mine_ && container_.pass_ == mine_)
            container_.pass_ = nullptr;
    }
    FirstPassScope(const FirstPassScope &) = delete;
    FirstPassScope &operator=(const FirstPassScope &) = delete;

private:
    ArchiveContainer &container_;
    const FirstPass *mine_ = nullptr;
};

// The points `recorder` made before decoded offset `reached`, into `slot`; false when none serve.
template <class Recorder, class Index>
static bool keepSoFar(const Recorder &recorder, uint64_t reached, std::shared_ptr<const Index> &slot)
{
    auto points = recorder.sofar(reached);
    if (points)
        slot = std::make_shared<const Index>(std::move(*points));
    return bool(points);
}

std::shared_ptr<const ArchiveIndex> ArchiveContainer::indexSoFar(const Entry &entry) const
{
    const std::lock_guard lock(indexMutex_);
    if (!pass_)
        return nullptr;
    const ArchiveIndex &made = *pass_->made;
    const size_t at = size_t(entry.ordinal);
    if (at >= made.entries.size() || made.entries[at].path != entry.path)
        return nullptr;
    auto sofar = std::make_shared<ArchiveIndex>();
    sofar->libarchiveFormat = libarchiveFormat_;
    sofar->memberFormat = memberFormat_;
    sofar->filters = filters_;
    // Up to the member: the entry source checks its own path and header offset there.
    sofar->entries.assign(made.entries.begin(), made.entries.begin() + std::ptrdiff_t(at) + 1);
    sofar->headers.assign(made.headers.begin(), made.headers.begin() + std::ptrdiff_t(at) + 1);
    const uint64_t reached = made.headers.back() + 1; // the latest header is decoded
    if (pass_->gzip) {
        // Gzip spans end at the latest point: the member must end before it, which its
        // successor's header shows.
        auto points = pass_->gzip->sofar();
        if (!points || at + 1 >= made.headers.size() || made.headers[at + 1] > points->decodedSize)
            return nullptr;
        sofar->decodedSize = points->decodedSize;
        sofar->gzip = std::make_shared<const GzipSeekIndex>(std::move(*points));
    } else if (pass_->bzip2 || pass_->frames) {
        // Block and frame streams go on past their last point: any point before the position
        // reached serves.
        const bool placed = pass_->bzip2 ? keepSoFar(*pass_->bzip2, reached, sofar->bzip2) : keepSoFar(*pass_->frames, reached, sofar->frames);
        if (!placed)
            return nullptr;
        sofar->decodedSize = reached;
    } else if (pass_->xz) {
        sofar->decodedSize = pass_->xz->decodedSize;
        sofar->xz = pass_->xz;
    } else {
        return nullptr;
    }
    return sofar;
}

Result<void> ArchiveContainer::list(const EntrySink &sink)
{
    if (auto kept = index()) {
        for (const Entry &e : kept->entries) {
            if (!sink(e))
                return {};
        }
        return {};
    }
    // The first complete listing of a compressed tar makes its index: where each header lies in
    // the decoded stream, and (gzip) seek points made by the same pass.
    std::optional<QByteArray> identity = indexable_ ? index_cache::identityOf(*source_) : std::nullopt;
    GzipSeekRecorder gzipPoints;
    Bzip2PointRecorder bzip2Points;
    FramePointRecorder framePoints;
    SeekRecorders recorders;
    if (identity && filters_ == QStringList{QStringLiteral("gzip")})
        recorders.gzip = &gzipPoints;
    if (identity && filters_ == QStringList{QStringLiteral("bzip2")})
        recorders.bzip2 = &bzip2Points;
    if (identity && (filters_ == QStringList{QStringLiteral("zstd")} || filters_ == QStringList{QStringLiteral("lz4")}))
        recorders.frames = &framePoints;
    auto r = LibarchiveReader::open(source_, mode_, charset_, &recorders);
    if (!r)
        return std::move(r).error();
    // libarchive does not say how many bytes a zip member takes: its central directory does.
    std::optional<ZipPackedSizes> packed;
    if (mode_ == LibarchiveReader::Mode::Archives && formatName_ == QLatin1String("zip"))
        packed = ZipPackedSizes::read(*source_, charset_);
    std::optional<SevenZipPackedSizes> blocks;
    if (mode_ == LibarchiveReader::Mode::Archives && formatName_ == QLatin1String("7z"))
        blocks = SevenZipPackedSizes::read(*source_);
    ArchiveIndex made;
    // xz lists its blocks at its end: known before the pass, and a member opened during it
    // starts at the block before it.
    std::shared_ptr<const XzBlockIndex> xzBlocks;
    if (identity && filters_ == QStringList{QStringLiteral("xz")}) {
        if (auto blocks = readXzBlocks(*source_))
            xzBlocks = std::make_shared<const XzBlockIndex>(std::move(*blocks));
    }
    const FirstPass pass{&made, recorders.gzip, recorders.bzip2, recorders.frames, xzBlocks};
    std::optional<FirstPassScope> running;
    if (identity)
        running.emplace(*this, pass);
    const uint64_t problemsBefore = problemsReportedHere();
    Entry entry;
    for (;;) {
        auto more = next(**r, entry);
        if (!more)
            return std::move(more).error();
        if (!*more)
            break;
        if (packed)
            packed->fill(entry);
        if (blocks)
            blocks->fill(entry);
        if (identity) {
            const uint64_t header = (*r)->headerPosition();
            const std::lock_guard lock(indexMutex_);
            made.entries.push_back(entry);
            made.headers.push_back(header);
        }
        if (!sink(entry))
            return {};
    }
    running.reset();
    // An archive with problems is listed in full each time: the index would hide them.
    if (!identity || problemsReportedHere() != problemsBefore)
        return {};
    auto decoded = (*r)->drainDecoded();
    if (!decoded)
        return {}; // what follows the archive is damaged: no index, the listing stands
    made.identity = *identity;
    made.libarchiveFormat = libarchiveFormat_;
    made.memberFormat = memberFormat_;
    made.filters = filters_;
    made.decodedSize = *decoded;
    if (recorders.gzip) {
        if (auto points = gzipPoints.finish(*decoded))
            made.gzip = std::make_shared<const GzipSeekIndex>(std::move(*points));
    } else if (recorders.bzip2) {
        if (auto points = bzip2Points.finish(*decoded))
            made.bzip2 = std::make_shared<const Bzip2PointIndex>(std::move(*points));
    } else if (recorders.frames) {
        if (auto points = framePoints.finish(*decoded))
            made.frames = std::make_shared<const FramePointIndex>(std::move(*points));
    } else if (xzBlocks && xzBlocks->decodedSize == *decoded) {
        made.xz = xzBlocks; // xz's blocks are its own restart points, listed at its end
    }
    auto kept = std::make_shared<const ArchiveIndex>(std::move(made));
    index_cache::remember(kept);
    if (auto saved = index_cache::save(*kept); !saved)
        index_cache::notice(QStringLiteral("the index of %1 was not kept: %2").arg(source_->name(), saved.error().toString()));
    const std::lock_guard lock(indexMutex_);
    index_ = std::move(kept);
    return {};
}

// Encrypted content is never read as if it were plain. libarchive decrypts zip (ZipCrypto and
// WinZip AES) with the passwords given; a wrong one fails its check there. Other formats'
// encryption it cannot decrypt.
std::optional<Error> ArchiveContainer::refuseEncrypted(const Entry &entry, const QString &name) const
{
    if (!entry.encrypted)
        return std::nullopt;
    if (formatName_ != QLatin1String("zip"))
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("entry is encrypted; ArchiveScope cannot decrypt %1 entries").arg(formatName_));
    if (archivePasswords().isEmpty() && !canAskForPasswords())
        return Error::make(ErrorKind::Password, name, QStringLiteral("entry is encrypted: a password is needed (--password-file FILE or ARCHIVESCOPE_PASSWORD)"));
    return std::nullopt;
}

Result<void> ArchiveContainer::walk(const ContentSink &sink)
{
    auto r = reader();
    if (!r)
        return std::move(r).error();
    LibarchiveReader &archive = **r;
    Entry entry;
    for (;;) {
        auto more = next(archive, entry);
        if (!more)
            return std::move(more).error();
        if (!*more)
            return {};
        const bool readable = entry.type == EntryType::File || (entry.type == EntryType::Hardlink && entry.size > 0);
        const ContentReader content = [&](std::span<char> out) -> Result<size_t> {
            if (!readable)
                return size_t(0);
            const QString name = source_->name() + QStringLiteral("!/") + bytesToText(entry.path);
            if (auto refused = refuseEncrypted(entry, name))
                return *refused;
            if (!entry.problem.isEmpty()) // listed, but libarchive cannot read it: the others still can
                return Error::make(ErrorKind::Unsupported, name, QStringLiteral("unreadable: %1").arg(QString::fromUtf8(entry.problem)));
            return archive.read(out);
        };
        auto keepGoing = sink(entry, content);
        if (!keepGoing)
            return std::move(keepGoing).error();
        if (!*keepGoing)
            return {};
    }
}

Result<SourcePtr> ArchiveContainer::open(const Entry &entry)
{
    const QString name = source_->name() + QStringLiteral("!/") + bytesToText(entry.path);
    const bool hardlinkWithData = entry.type == EntryType::Hardlink && entry.size > 0 && entry.size != kUnknown;
    if (entry.type != EntryType::File && !hardlinkWithData)
        return Error::make(ErrorKind::Usage, name,
                           QStringLiteral("is a %1, not a file").arg(entryTypeName(entry.type)));
    if (auto refused = refuseEncrypted(entry, name))
        return *refused;
    if (!entry.problem.isEmpty())
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("unreadable: %1").arg(QString::fromUtf8(entry.problem)));
    if (entry.dataOffset != kUnknown && entry.type == EntryType::File)
        return SourcePtr(std::make_shared<SliceSource>(source_, entry.dataOffset, entry.size, name));
    auto kept = index();
    if (!kept)
        kept = indexSoFar(entry); // the first listing still runs: from a point it made already
    return ArchiveEntrySource::open(source_, mode_, charset_, entry, name, std::move(kept));
}

QJsonObject ArchiveContainer::info() const
{
    QJsonObject info;
    info[QStringLiteral("format")] = formatName_;
    info[QStringLiteral("libarchive_format")] = libarchiveFormat_;
    info[QStringLiteral("filters")] = QJsonArray::fromStringList(filters_);
    info[QStringLiteral("size")] = double(source_->size());
    return info;
}

} // namespace asc
