// SPDX-License-Identifier: MIT
#include "xfs_container.h"

#include "io/byte_text.h"

#include <QJsonArray>

namespace asc {

int probeXfs(std::span<const char> head)
{
    return xfs::looksLikeXfs(head) ? 92 : 0;
}

XfsContainer::XfsContainer(std::shared_ptr<xfs::Volume> volume)
    : volume_(std::move(volume))
{
}

Result<ContainerPtr> XfsContainer::open(SourcePtr source)
{
    auto volume = xfs::Volume::open(std::move(source));
    if (!volume)
        return std::move(volume).error();
    auto root = (*volume)->inode((*volume)->rootInode());
    if (!root)
        return std::move(root).error();
    if (!root->isDir())
        return Error::format((*volume)->where(root->number), std::nullopt, QStringLiteral("the root inode is not a folder (mode %1)").arg(root->mode, 0, 8));
    return ContainerPtr(new XfsContainer(std::move(volume).value()));
}

Result<void> XfsContainer::readFolder(uint64_t folder, const QByteArray &parent, const FolderSink &sink, uint64_t &ordinal, bool report)
{
    auto dir = volume_->inode(folder);
    if (!dir)
        return std::move(dir).error();
    if (!dir->isDir())
        return Error::format(volume_->where(folder), std::nullopt, QStringLiteral("not a folder"));
    auto names = volume_->directory(*dir);
    if (!names)
        return std::move(names).error();
    for (const xfs::DirEntry &name : *names) {
        Entry e;
        e.path = parent + name.name;
        e.dataOffset = name.inode;
        e.ordinal = ordinal++;
        auto node = volume_->inode(name.inode);
        if (!node) {
            // One bad inode spoils its own entry only.
            setUnreadable(e, std::move(node).error(), report);
            if (!sink(std::move(e)))
                return {};
            continue;
        }
        e.type = typeOfMode(node->mode);
        e.mode = node->mode & 07777;
        e.uid = node->uid;
        e.gid = node->gid;
        e.hasMtime = true;
        e.mtime = node->mtime;
        e.mtimeNsec = node->mtimeNsec;
        if (e.type == EntryType::File) {
            e.size = node->size;
            if (node->links > 1)
                e.detail = QByteArray::number(node->links) + " links";
            if (node->isRealtime())
                e.problem = "lives on the realtime volume, which ArchiveScope does not read";
        } else if (e.type == EntryType::Symlink) {
            auto target = volume_->symlinkTarget(*node);
            if (target)
                e.target = *target;
            else
                setUnreadable(e, std::move(target).error(), report);
        } else if (e.type == EntryType::CharDev || e.type == EntryType::BlockDev) {
            // xfs_dev_t: 14 bits of major, 18 of minor.
            e.rdevMajor = node->rdev >> 18;
            e.rdevMinor = node->rdev & 0x3ffff;
        }
        if (!sink(std::move(e)))
            return {};
    }
    return {};
}

Result<SourcePtr> XfsContainer::open(const Entry &entry)
{
    if (auto ok = checkOpenable(entry); !ok)
        return std::move(ok).error();
    auto node = volume_->inode(entry.dataOffset);
    if (!node)
        return std::move(node).error();
    return volume_->fileSource(*node, entryName(entry));
}

QJsonObject XfsContainer::info() const
{
    QJsonObject o;
    o[QStringLiteral("format")] = QStringLiteral("xfs");
    o[QStringLiteral("filesystem")] = QStringLiteral("xfs");
    o[QStringLiteral("version")] = volume_->version();
    o[QStringLiteral("block_size")] = double(volume_->blockSize());
    o[QStringLiteral("block_count")] = double(volume_->blockCount());
    o[QStringLiteral("uuid")] = volume_->uuid();
    if (volume_->realtimeBlocks())
        o[QStringLiteral("realtime_blocks")] = double(volume_->realtimeBlocks());
    if (!volume_->label().isEmpty())
        o[QStringLiteral("label")] = bytesToText(volume_->label());
    o[QStringLiteral("features")] = QJsonArray::fromStringList(volume_->features());
    o[QStringLiteral("reader")] = QStringLiteral("ArchiveScope's XFS reader");
    return o;
}

} // namespace asc
