// SPDX-License-Identifier: MIT
#include "archive_container.h"

#include "io/byte_text.h"

#include "archive_entry_source.h"
#include "io/byte_text.h"
#include "io/slice_source.h"
#include "name_charset.h"
#include "vfs/problems.h"

#include <QJsonArray>
#include <archive.h>
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

Result<ContainerPtr> ArchiveContainer::open(SourcePtr source, LibarchiveReader::Mode mode)
{
    std::shared_ptr<ArchiveContainer> container(new ArchiveContainer(std::move(source), mode));
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
    return ContainerPtr(container);
}

Result<void> ArchiveContainer::list(const EntrySink &sink)
{
    auto r = reader();
    if (!r)
        return std::move(r).error();
    Entry entry;
    for (;;) {
        auto more = next(**r, entry);
        if (!more)
            return std::move(more).error();
        if (!*more || !sink(entry))
            return {};
    }
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
            if (entry.encrypted)
                return Error::make(ErrorKind::Unsupported, name, QStringLiteral("entry is encrypted; ArchiveScope cannot decrypt it"));
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
    if (entry.encrypted)
        return Error::make(ErrorKind::Unsupported, name,
                           QStringLiteral("entry is encrypted; ArchiveScope cannot decrypt it"));
    if (!entry.problem.isEmpty())
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("unreadable: %1").arg(QString::fromUtf8(entry.problem)));
    if (entry.dataOffset != kUnknown && entry.type == EntryType::File)
        return SourcePtr(std::make_shared<SliceSource>(source_, entry.dataOffset, entry.size, name));
    return ArchiveEntrySource::open(source_, mode_, charset_, entry, name);
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
