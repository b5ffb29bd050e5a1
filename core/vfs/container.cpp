// SPDX-License-Identifier: MIT
#include "container.h"

#include "io/byte_text.h"

namespace asc {

Result<Entry> Container::find(const QByteArray &path)
{
    std::optional<Entry> found;
    auto listed = list([&](const Entry &entry) {
        if (entry.path != path)
            return true;
        found = entry;
        return mayRepeatNames();
    });
    if (!listed)
        return std::move(listed).error();
    if (!found)
        return Error::make(ErrorKind::NotFound, source()->name(),
                           QStringLiteral("no entry '%1'").arg(bytesToText(path)));
    return *found;
}

Result<void> Container::listDirectory(const Entry &dir, const EntrySink &sink)
{
    const QByteArray prefix = dir.path.isEmpty() ? QByteArray() : dir.path + '/';
    return list([&](const Entry &entry) {
        if (!entry.path.startsWith(prefix) || entry.path.size() == prefix.size() || entry.path.indexOf('/', prefix.size()) >= 0)
            return true;
        return sink(entry);
    });
}

Result<void> Container::walk(const ContentSink &sink)
{
    std::optional<Error> failure;
    auto listed = list([&](const Entry &entry) {
        SourcePtr content;
        std::optional<Error> unreadable; // this entry only: the sink hears it, the walk goes on
        uint64_t position = 0;
        if (entry.type == EntryType::File) {
            auto opened = open(entry);
            if (!opened && !opened.error().onlyThisEntry()) {
                failure = std::move(opened).error();
                return false;
            }
            if (opened)
                content = std::move(opened).value();
            else
                unreadable = std::move(opened).error();
        }
        const ContentReader reader = [&](std::span<char> out) -> Result<size_t> {
            if (unreadable)
                return *unreadable;
            if (!content)
                return size_t(0);
            auto got = content->readAt(position, out);
            if (got)
                position += *got;
            return got;
        };
        auto more = sink(entry, reader);
        if (!more) {
            failure = std::move(more).error();
            return false;
        }
        return *more;
    });
    if (failure)
        return *failure;
    return listed;
}

Result<void> Container::walkSelection(const QByteArray &selection, const ContentSink &sink)
{
    if (!selection.isEmpty() && (listsFromIndex() || !impliesDirectories())) {
        auto entry = find(selection);
        if (entry && entry->type == EntryType::File && entry->problem.isEmpty()) {
            auto content = open(*entry);
            if (!content)
                return std::move(content).error();
            const SourcePtr source = std::move(content).value();
            uint64_t at = 0;
            auto more = sink(*entry, [&](std::span<char> buf) -> Result<size_t> {
                auto got = source->readAt(at, buf);
                if (got)
                    at += *got;
                return got;
            });
            if (!more)
                return std::move(more).error();
            return {};
        }
    }
    return walk(sink);
}

Result<std::shared_ptr<Container>> Container::openNested(const Entry &entry, const ContainerOpener &opener)
{
    auto content = open(entry);
    if (!content)
        return std::move(content).error();
    return opener(std::move(content).value());
}

} // namespace asc
