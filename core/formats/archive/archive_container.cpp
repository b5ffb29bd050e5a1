#include "archive_container.h"

#include "archive_entry_source.h"
#include "io/slice_source.h"

#include <QJsonArray>

namespace asc {

ArchiveContainer::ArchiveContainer(SourcePtr source, LibarchiveReader::Mode mode)
    : source_(std::move(source)), mode_(mode)
{
}

Result<std::unique_ptr<LibarchiveReader>> ArchiveContainer::reader() const
{
    return LibarchiveReader::open(source_, mode_);
}

// libarchive's long names ("GNU tar format", "ZIP 2.0 (deflation)") to the short ones `ls` users know.
static QString shortFormatName(const QString &libarchiveName, LibarchiveReader::Mode mode)
{
    if (mode == LibarchiveReader::Mode::SingleCompressed)
        return QStringLiteral("compressed");
    const QString lower = libarchiveName.toLower();
    static const std::pair<const char *, const char *> known[] = {
        {"tar", "tar"},  {"zip", "zip"},   {"7-zip", "7z"},  {"iso9660", "iso9660"}, {"cpio", "cpio"},
        {"ar", "ar"},    {"xar", "xar"},   {"cab", "cab"},   {"rar5", "rar5"},       {"rar", "rar"},
        {"lha", "lha"},  {"warc", "warc"}, {"mtree", "mtree"}, {"empty", "empty"},
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
    auto r = container->reader();
    if (!r)
        return std::move(r).error();
    // The format name is only known once the first header has been read.
    Entry first;
    auto firstHeader = (*r)->next(first);
    if (!firstHeader)
        return std::move(firstHeader).error();
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
        auto more = (*r)->next(entry);
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
        auto more = archive.next(entry);
        if (!more)
            return std::move(more).error();
        if (!*more)
            return {};
        const bool readable = entry.type == EntryType::File || (entry.type == EntryType::Hardlink && entry.size > 0);
        const Error encrypted = Error::make(ErrorKind::Unsupported, source_->name() + QStringLiteral("!/") + QString::fromUtf8(entry.path),
                                            QStringLiteral("entry is encrypted; ArchiveScope cannot decrypt it"));
        const ContentReader content = [&](std::span<char> out) -> Result<size_t> {
            if (!readable)
                return size_t(0);
            if (entry.encrypted)
                return encrypted;
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
    const QString name = source_->name() + QStringLiteral("!/") + QString::fromUtf8(entry.path);
    const bool hardlinkWithData = entry.type == EntryType::Hardlink && entry.size > 0 && entry.size != kUnknown;
    if (entry.type != EntryType::File && !hardlinkWithData)
        return Error::make(ErrorKind::Usage, name,
                           QStringLiteral("is a %1, not a file").arg(entryTypeName(entry.type)));
    if (entry.encrypted)
        return Error::make(ErrorKind::Unsupported, name,
                           QStringLiteral("entry is encrypted; ArchiveScope cannot decrypt it"));
    if (entry.dataOffset != kUnknown && entry.type == EntryType::File)
        return SourcePtr(std::make_shared<SliceSource>(source_, entry.dataOffset, entry.size, name));
    return ArchiveEntrySource::open(source_, mode_, entry, name);
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
