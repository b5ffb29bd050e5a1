// SPDX-License-Identifier: MIT
#include "deep_walk.h"

#include "formats/format.h"
#include "open/spec.h"

namespace asc {

namespace {

struct Walk {
    const FileVisitor &visit;
    const WalkFilesOptions &options;
    bool stopped = false;

    Result<void> one(const ContainerPtr &container, const QByteArray &selection, const QByteArray &shown, int depth)
    {
        const QByteArray prefix = selection.isEmpty() ? QByteArray() : selection + '/';
        std::vector<Entry> inner; // volumes and archives, walked after this container
        auto walked = container->walkSelection(selection, [&](const Entry &entry, const Container::ContentReader &read) -> Result<bool> {
            if (!prefix.isEmpty() && !entry.path.startsWith(prefix) && entry.path != selection)
                return true;
            const QByteArray path = shown + (prefix.isEmpty() || entry.path == selection ? entry.path : entry.path.mid(prefix.size()));
            const bool volume = entry.type == EntryType::Partition && !entry.opaque;
            const bool archive = options.intoArchives && entry.type == EntryType::File && nameSuggestsContainer(entry.path);
            if ((volume || archive) && depth + 1 < kMaxNesting) {
                inner.push_back(entry);
                return true;
            }
            auto go = visit(container, entry, path, read);
            if (go && !*go)
                stopped = true;
            return go;
        });
        if (!walked || stopped)
            return walked;
        for (const Entry &entry : inner) {
            if (stopped)
                break;
            const QByteArray path = shown + (prefix.isEmpty() || entry.path == selection ? entry.path : entry.path.mid(prefix.size())) + "!/";
            auto source = container->open(entry);
            Location here;
            if (source)
                here.source = std::move(source).value();
            auto opened = here.source ? containerAt(here) : Result<ContainerPtr>(std::move(source).error());
            if (!opened) {
                // A partition that holds nothing we read (swap, free space) is no problem; one we
                // recognise and cannot open is. An archive by name that is not one is a file.
                if (entry.type == EntryType::File && opened.error().kind == ErrorKind::Format) {
                    if (auto go = visitAsFile(container, entry, path.chopped(2)); !go)
                        return go;
                } else if (opened.error().kind != ErrorKind::Format && options.cannotOpen) {
                    options.cannotOpen(opened.error());
                }
                continue;
            }
            if (auto ok = one(*opened, {}, path, depth + 1); !ok && options.cannotOpen)
                options.cannotOpen(ok.error());
        }
        return {};
    }

    // A file named like an archive that is none: its own bytes after all.
    Result<void> visitAsFile(const ContainerPtr &container, const Entry &entry, const QByteArray &path)
    {
        auto source = container->open(entry);
        if (!source) {
            if (options.cannotOpen)
                options.cannotOpen(source.error());
            return {};
        }
        uint64_t offset = 0;
        const SourcePtr bytes = std::move(source).value();
        const Container::ContentReader read = [&](std::span<char> buffer) -> Result<size_t> {
            auto got = bytes->readAt(offset, buffer);
            if (got)
                offset += *got;
            return got;
        };
        auto go = visit(container, entry, path, read);
        if (go && !*go)
            stopped = true;
        return go ? Result<void>() : Result<void>(std::move(go).error());
    }
};

} // namespace

Result<void> walkFiles(const ContainerPtr &container, const QByteArray &selection, const FileVisitor &visit, const WalkFilesOptions &options)
{
    Walk walk{visit, options};
    return walk.one(container, selection, {}, 0);
}

} // namespace asc
