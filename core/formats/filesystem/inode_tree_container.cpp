// SPDX-License-Identifier: MIT
#include "inode_tree_container.h"

#include "io/byte_text.h"
#include "vfs/problems.h"

#include <QSet>

namespace asc {

namespace {
constexpr uint64_t kMaxEntries = 50'000'000; // a hostile volume's loops end here at the latest
} // namespace

Result<void> InodeTreeContainer::list(const EntrySink &sink)
{
    // Depth first in directory order, as find(1) walks; a folder seen twice (a damaged volume's
    // loop) is listed once.
    struct Pending {
        uint64_t inode;
        QByteArray path;
    };
    std::vector<Pending> stack{{rootInode(), {}}};
    QSet<uint64_t> seen{rootInode()};
    uint64_t ordinal = 0;
    bool stopped = false;
    while (!stack.empty() && !stopped) {
        Pending folder = std::move(stack.back());
        stack.pop_back();
        std::vector<Pending> below;
        auto read = readFolder(
            folder.inode, folder.path.isEmpty() ? QByteArray() : folder.path + '/', [&](Entry &&e) {
                if (ordinal > kMaxEntries) {
                    stopped = true;
                    return false;
                }
                if (e.type == EntryType::Dir && !seen.contains(e.dataOffset)) {
                    seen.insert(e.dataOffset);
                    below.push_back({e.dataOffset, e.path});
                }
                if (!sink(e)) {
                    stopped = true;
                    return false;
                }
                return true;
            },
            ordinal, true);
        if (!read)
            return read;
        stack.insert(stack.end(), std::make_move_iterator(below.rbegin()), std::make_move_iterator(below.rend()));
    }
    return {};
}

Result<void> InodeTreeContainer::listDirectory(const Entry &dir, const EntrySink &sink)
{
    uint64_t folder = rootInode();
    if (!dir.path.isEmpty()) {
        if (dir.dataOffset != kUnknown) {
            folder = dir.dataOffset;
        } else {
            auto found = find(dir.path);
            if (!found)
                return std::move(found).error();
            folder = found->dataOffset;
        }
    }
    uint64_t ordinal = 0;
    return readFolder(
        folder, dir.path.isEmpty() ? QByteArray() : dir.path + '/', [&](Entry &&e) { return sink(e); }, ordinal, true);
}

Result<Entry> InodeTreeContainer::find(const QByteArray &path)
{
    Entry folder;
    folder.type = EntryType::Dir;
    folder.dataOffset = rootInode();
    const QList<QByteArray> parts = path.split('/');
    for (qsizetype i = 0; i < parts.size(); ++i) {
        if (folder.type != EntryType::Dir)
            break;
        const QByteArray want = folder.path.isEmpty() ? parts[i] : folder.path + '/' + parts[i];
        std::optional<Entry> found;
        uint64_t ordinal = 0;
        auto read = readFolder(
            folder.dataOffset, folder.path.isEmpty() ? QByteArray() : folder.path + '/', [&](Entry &&e) {
                if (e.path != want)
                    return true;
                found = std::move(e);
                return false;
            },
            ordinal, false);
        if (!read)
            return std::move(read).error();
        if (!found)
            break;
        if (!found->problem.isEmpty()) // its inode could not be read: say why, not "no entry"
            return Error::make(ErrorKind::Damaged, source()->name() + QStringLiteral("!/") + bytesToText(found->path), QString::fromUtf8(found->problem));
        folder = std::move(*found);
        if (i + 1 == parts.size())
            return folder;
    }
    return Error::make(ErrorKind::NotFound, source()->name(), QStringLiteral("no entry '%1'").arg(bytesToText(path)));
}

EntryType InodeTreeContainer::typeOfMode(uint32_t mode)
{
    switch (mode & 0xF000) {
    case 0x4000: return EntryType::Dir;
    case 0xA000: return EntryType::Symlink;
    case 0x2000: return EntryType::CharDev;
    case 0x6000: return EntryType::BlockDev;
    case 0x1000: return EntryType::Fifo;
    case 0xC000: return EntryType::Socket;
    default: return EntryType::File;
    }
}

void InodeTreeContainer::setLinuxDevice(Entry &e, uint32_t dev)
{
    e.rdevMajor = (dev & 0xfff00) >> 8;
    e.rdevMinor = (dev & 0xff) | ((dev >> 12) & 0xfff00);
}

void InodeTreeContainer::setUnreadable(Entry &e, Error error, bool report) const
{
    e.problem = error.withoutFile().toUtf8();
    if (report) {
        error.file = entryName(e);
        reportProblem(error);
    }
}

QString InodeTreeContainer::entryName(const Entry &e) const
{
    return source()->name() + QStringLiteral("!/") + bytesToText(e.path);
}

Result<void> InodeTreeContainer::checkOpenable(const Entry &e) const
{
    if (e.type != EntryType::File)
        return Error::make(ErrorKind::Usage, entryName(e), QStringLiteral("is a %1, not a file").arg(entryTypeName(e.type)));
    if (e.dataOffset == kUnknown)
        return Error::format(entryName(e), std::nullopt, QStringLiteral("no inode for this entry"));
    return {};
}

} // namespace asc
