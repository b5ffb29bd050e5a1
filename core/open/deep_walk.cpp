// SPDX-License-Identifier: MIT
#include "deep_walk.h"

#include "formats/format.h"
#include "open/spec.h"

#include "io/memory_source.h"

namespace asc {

namespace {

// Archives up to this size found inside another are walked from the bytes going by.
constexpr uint64_t kInPlaceBytes = 64 << 20;

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
                // A small archive is walked now, from the bytes going by: opening it afterwards
                // would decode the outer archive again up to it (thousands of changelog.gz in a
                // tar.gz of /usr/share each cost a span of the outer stream).
                if (archive && entry.size != kUnknown && entry.size <= kInPlaceBytes)
                    return inPlace(container, entry, path, read, depth);
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
            if (!source) {
                if (options.cannotOpen)
                    options.cannotOpen(source.error());
                continue;
            }
            if (auto ok = nested(container, entry, path, *source, depth); !ok)
                return ok;
        }
        return {};
    }

    // `source` (the bytes of `entry`, shown as `path` + "!/") walked as the container it opens as;
    // an archive by name that is none is a file after all.
    Result<void> nested(const ContainerPtr &container, const Entry &entry, const QByteArray &path, const SourcePtr &source, int depth)
    {
        Location here;
        here.source = source;
        auto opened = containerAt(here);
        if (!opened) {
            // A partition that holds nothing we read (swap, free space) is no problem; one we
            // recognise and cannot open is.
            if (entry.type == EntryType::File && opened.error().kind == ErrorKind::Format)
                return visitAsFile(container, entry, path.chopped(2), source);
            if (opened.error().kind != ErrorKind::Format && options.cannotOpen)
                options.cannotOpen(opened.error());
            return {};
        }
        if (auto ok = one(*opened, {}, path, depth + 1); !ok && options.cannotOpen)
            options.cannotOpen(ok.error());
        return {};
    }

    // A small archive's bytes read as the outer walk goes by them, then walked at once.
    Result<bool> inPlace(const ContainerPtr &container, const Entry &entry, const QByteArray &path, const Container::ContentReader &read, int depth)
    {
        QByteArray bytes(qsizetype(entry.size), Qt::Uninitialized);
        qsizetype filled = 0;
        for (;;) {
            if (filled == bytes.size())
                bytes.resize(filled + 1); // room to see that it does not end where its header says
            auto got = read(std::span(bytes.data() + filled, size_t(bytes.size() - filled)));
            if (!got) {
                if (options.cannotOpen)
                    options.cannotOpen(got.error());
                return got.error().onlyThisEntry() ? Result<bool>(true) : Result<bool>(std::move(got).error());
            }
            if (*got == 0)
                break;
            filled += qsizetype(*got);
        }
        bytes.truncate(filled);
        const QString name = container->source()->name() + QStringLiteral("!/") + QString::fromUtf8(entry.path);
        if (auto ok = nested(container, entry, path + "!/", std::make_shared<MemorySource>(std::move(bytes), name), depth); !ok)
            return std::move(ok).error();
        return !stopped;
    }

    // A file named like an archive that is none: its own bytes after all.
    Result<void> visitAsFile(const ContainerPtr &container, const Entry &entry, const QByteArray &path, const SourcePtr &bytes)
    {
        uint64_t offset = 0;
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
