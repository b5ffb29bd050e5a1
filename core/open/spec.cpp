// SPDX-License-Identifier: MIT
#include "spec.h"
#include "split_set.h"

#include "formats/archive/libarchive_reader.h"
#include "formats/format.h"
#include "io/byte_text.h"
#include "io/file_source.h"
#include "io/memory_source.h"

#include <sys/stat.h>

namespace asc {

static const QString kSeparator = QStringLiteral("!/");

SpecParts splitSpec(const QString &spec)
{
    SpecParts parts;
    struct stat st {};
    if (!spec.contains(kSeparator) || ::stat(nativePath(spec).constData(), &st) == 0) {
        parts.file = spec;
        return parts;
    }
    const QStringList pieces = spec.split(kSeparator);
    parts.file = pieces.first();
    for (qsizetype i = 1; i < pieces.size(); ++i)
        parts.inner << normaliseArchivePath(textToBytes(pieces[i]));
    return parts;
}

QString joinSpec(const SpecParts &parts)
{
    QString spec = parts.file;
    for (const QByteArray &inner : parts.inner)
        spec += kSeparator + bytesToText(inner);
    return spec;
}

QString parentSpec(const QString &spec)
{
    SpecParts parts = splitSpec(spec);
    if (!parts.inner.isEmpty())
        parts.inner.removeLast();
    return joinSpec(parts);
}

// Content kept while looking an entry up in a stream that is read to its end anyway.
static constexpr uint64_t kKeptContent = uint64_t(64) << 20;

// What a listing or a walk has shown of one path: its entry (the last of that name so far), and
// whether deeper entries imply a directory there.
struct PathLookup {
    explicit PathLookup(const QByteArray &p)
        : path(p),
          prefix(p + '/')
    {
    }
    bool matches(const Entry &entry) // true for the path's own entry
    {
        if (entry.path == path) {
            found = entry;
            return true;
        }
        if (entry.path.startsWith(prefix))
            implicitDir = true;
        return false;
    }
    QByteArray path;
    QByteArray prefix;
    std::optional<Entry> found;
    bool implicitDir = false;
};

// The whole content of a file entry read through a walk's reader, if it is worth keeping: not a
// slice of the file (that is read again for free) and not over kKeptContent.
static std::optional<QByteArray> keptContent(const Entry &entry, const Container::ContentReader &read)
{
    if (entry.type != EntryType::File || entry.dataOffset != kUnknown || entry.size == kUnknown || entry.size > kKeptContent)
        return std::nullopt;
    QByteArray bytes(qsizetype(entry.size), Qt::Uninitialized);
    for (uint64_t have = 0; have < entry.size;) {
        auto got = read(std::span(bytes.data() + have, size_t(entry.size - have)));
        if (!got || *got == 0)
            return std::nullopt; // not kept: opening it later reports what went wrong
        have += *got;
    }
    return bytes;
}

// Finds `path` in a container: the entry itself, or a directory only implied by deeper entries.
// Where names may repeat (a tar appended to) the lookup reads to the end for the last member of
// the name; with `kept`, that member's content is kept on the way (keptContent), so that reading
// it does not decode a compressed stream a second time.
static Result<std::optional<Entry>> findEntry(Container &container, const QByteArray &path, bool *implicitDir,
                                              std::optional<QByteArray> *kept = nullptr)
{
    *implicitDir = false;
    if (!container.impliesDirectories()) {
        // Random-access containers look the path up directly (reading only what that needs).
        auto entry = container.find(path);
        if (entry)
            return std::optional<Entry>(std::move(entry).value());
        if (entry.error().kind == ErrorKind::NotFound)
            return std::optional<Entry>();
        return std::move(entry).error();
    }
    PathLookup lookup(path);
    Result<void> done;
    if (kept && container.mayRepeatNames() && !container.listsFromIndex()) {
        done = container.walkSelection(path, [&](const Entry &entry, const Container::ContentReader &read) -> Result<bool> {
            if (lookup.matches(entry))
                *kept = keptContent(entry, read);
            return true;
        });
    } else {
        done = container.list([&](const Entry &entry) {
            // The last of several members of one name counts.
            return !lookup.matches(entry) || container.mayRepeatNames();
        });
    }
    if (!done)
        return std::move(done).error();
    *implicitDir = lookup.implicitDir;
    return lookup.found;
}

// A hardlink to `path` that carries the group's content (cpio newc), if any.
static Result<std::optional<Entry>> findDataCarrier(Container &container, const QByteArray &path)
{
    std::optional<Entry> found;
    auto listed = container.list([&](const Entry &entry) {
        if (entry.type == EntryType::Hardlink && entry.target == path && entry.size > 0 && entry.size != kUnknown) {
            found = entry;
            return false;
        }
        return true;
    });
    if (!listed)
        return std::move(listed).error();
    return found;
}

Result<Location> resolve(const QString &spec, bool unwrapLast)
{
    const SpecParts parts = splitSpec(spec);
    Location here;
    here.spec = parts.file;
    // A part of a split set (x.7z.001, x.z01, x.part2.rar) opens as the whole set.
    auto set = openSplitSet(parts.file);
    if (!set)
        return std::move(set).error();
    if (*set) {
        here.source = std::move(**set);
    } else {
        auto file = FileSource::open(parts.file);
        if (!file)
            return std::move(file).error();
        here.source = std::move(file).value();
    }

    for (qsizetype i = 0; i < parts.inner.size(); ++i) {
        const QByteArray &path = parts.inner[i];
        const QString name = here.spec + kSeparator + bytesToText(path);
        if (here.isDirectory())
            return Error::make(ErrorKind::Usage, here.spec, QStringLiteral("is a directory, cannot look inside it with !/"));
        auto container = openContainer(here.source);
        if (!container)
            return std::move(container).error();
        Location next;
        next.spec = name;
        next.parent = std::move(container).value();
        if (path.isEmpty()) { // "archive!/" names the archive's root
            next.directory = QByteArray();
            here = std::move(next);
            continue;
        }
        bool implicitDir = false;
        std::optional<QByteArray> kept;
        auto entry = findEntry(*next.parent, path, &implicitDir, &kept);
        if (!entry)
            return std::move(entry).error();
        Entry target;
        if (*entry) {
            target = **entry;
            // A hardlink reads as the file it points to.
            for (int hops = 0; target.type == EntryType::Hardlink && (target.size == 0 || target.size == kUnknown) && hops < 8; ++hops) {
                bool dummy = false;
                auto linked = findEntry(*next.parent, target.target, &dummy);
                if (!linked)
                    return std::move(linked).error();
                if (!*linked)
                    return Error::make(ErrorKind::NotFound, name, QStringLiteral("hardlink target '%1' is not in the archive").arg(bytesToText(target.target)));
                target = **linked;
            }
        } else if (!implicitDir) {
            return Error::make(ErrorKind::NotFound, here.spec,
                               QStringLiteral("no entry '%1'").arg(bytesToText(path)));
        }
        if (target.type == EntryType::File && target.size == 0) {
            // cpio stores a hardlink group's data with its last member; find it if there is one.
            auto carrier = findDataCarrier(*next.parent, target.path);
            if (!carrier)
                return std::move(carrier).error();
            if (*carrier)
                target = **carrier;
        }
        if (!*entry || target.type == EntryType::Dir) {
            next.directory = path;
            next.entry = *entry;
        } else if (kept && target.path == (*entry)->path && target.type == EntryType::File) {
            next.source = std::make_shared<MemorySource>(std::move(*kept), name);
            next.entry = **entry;
        } else if (target.type == EntryType::File || target.type == EntryType::Partition || target.type == EntryType::Hardlink) {
            auto content = next.parent->open(target);
            if (!content)
                return std::move(content).error();
            next.source = std::move(content).value();
            next.entry = **entry;
        } else {
            return Error::make(ErrorKind::Usage, name,
                               QStringLiteral("is a %1, it has no content").arg(entryTypeName(target.type)));
        }
        here = std::move(next);
    }
    if (!here.isDirectory() && unwrapLast) {
        // A disk image is transparent: its bytes are those of its virtual disk.
        here.raw = here.source;
        auto disk = unwrapImages(here.source);
        if (!disk)
            return std::move(disk).error();
        here.source = std::move(disk).value();
    }
    return here;
}

Result<ContainerPtr> containerAt(const Location &location)
{
    if (location.isDirectory())
        return location.parent;
    return openContainer(location.source);
}

} // namespace asc
