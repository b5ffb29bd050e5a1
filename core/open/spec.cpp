// SPDX-License-Identifier: MIT
#include "spec.h"

#include "io/byte_text.h"

#include "formats/archive/libarchive_reader.h"
#include "formats/format.h"
#include "io/file_source.h"

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

// Finds `path` in a container: the entry itself, or a directory only implied by deeper entries.
static Result<std::optional<Entry>> findEntry(Container &container, const QByteArray &path, bool *implicitDir)
{
    if (!container.impliesDirectories()) {
        // Random-access containers look the path up directly (reading only what that needs).
        *implicitDir = false;
        auto entry = container.find(path);
        if (entry)
            return std::optional<Entry>(std::move(entry).value());
        if (entry.error().kind == ErrorKind::NotFound)
            return std::optional<Entry>();
        return std::move(entry).error();
    }
    std::optional<Entry> found;
    const QByteArray prefix = path + '/';
    *implicitDir = false;
    auto listed = container.list([&](const Entry &entry) {
        if (entry.path == path) {
            found = entry;
            return container.mayRepeatNames(); // the last of several members of one name counts
        }
        if (entry.path.startsWith(prefix))
            *implicitDir = true;
        return true;
    });
    if (!listed)
        return std::move(listed).error();
    return found;
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

Result<Location> resolve(const QString &spec)
{
    const SpecParts parts = splitSpec(spec);
    auto file = FileSource::open(parts.file);
    if (!file)
        return std::move(file).error();
    Location here;
    here.spec = parts.file;
    here.source = std::move(file).value();

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
        auto entry = findEntry(*next.parent, path, &implicitDir);
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
    if (!here.isDirectory()) {
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
