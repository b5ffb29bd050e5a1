// SPDX-License-Identifier: MIT
#include "ext_container.h"

#include "io/byte_text.h"

#include <QJsonArray>
#include <cstring>
#include <QJsonObject>
#include <QSet>

namespace asc {

namespace {

constexpr uint32_t kRootInode = 2;

} // namespace

ExtContainer::ExtContainer(std::shared_ptr<ext::Volume> volume)
    : volume_(std::move(volume))
{
}

Result<ContainerPtr> ExtContainer::open(SourcePtr source)
{
    auto volume = ext::Volume::open(std::move(source));
    if (!volume)
        return std::move(volume).error();
    auto root = (*volume)->inode(kRootInode);
    if (!root)
        return std::move(root).error();
    if (!root->isDir())
        return Error::format((*volume)->where(kRootInode), std::nullopt, QStringLiteral("the root inode is not a folder (mode %1)").arg(root->mode, 0, 8));
    return ContainerPtr(new ExtContainer(std::move(volume).value()));
}

Result<void> ExtContainer::readFolder(uint64_t folder, const QByteArray &parent, const FolderSink &sink, uint64_t &ordinal, bool)
{
    auto dir = volume_->inode(uint32_t(folder));
    if (!dir)
        return std::move(dir).error();
    auto names = volume_->directory(*dir);
    if (!names)
        return std::move(names).error();
    for (const ext::DirEntry &name : *names) {
        auto node = volume_->inode(name.inode);
        if (!node)
            return std::move(node).error();
        Entry e;
        e.path = parent + name.name;
        e.type = typeOfMode(node->mode);
        e.mode = node->mode & 07777;
        e.uid = node->uid;
        e.gid = node->gid;
        e.hasMtime = true;
        e.mtime = node->mtime;
        e.mtimeNsec = node->mtimeNsec;
        e.encrypted = node->isEncrypted();
        e.dataOffset = name.inode; // the inode: content opens by it
        e.ordinal = ordinal++;
        if (e.type == EntryType::File) {
            e.size = node->size;
            if (node->links > 1)
                e.detail = QByteArray::number(node->links) + " links";
        } else if (e.type == EntryType::Symlink) {
            auto target = volume_->symlinkTarget(*node);
            if (!target)
                return std::move(target).error();
            e.target = *target;
        } else if (e.type == EntryType::CharDev || e.type == EntryType::BlockDev) {
            // Old encoding in i_block[0] (8-bit major and minor), new in i_block[1].
            uint32_t old = 0, now = 0;
            std::memcpy(&old, node->iblock.constData(), 4);
            std::memcpy(&now, node->iblock.constData() + 4, 4);
            if (old) {
                e.rdevMajor = (old >> 8) & 0xff;
                e.rdevMinor = old & 0xff;
            } else {
                setLinuxDevice(e, now);
            }
        }
        if (!sink(std::move(e)))
            return {};
    }
    return {};
}

Result<SourcePtr> ExtContainer::open(const Entry &entry)
{
    if (auto ok = checkOpenable(entry); !ok)
        return std::move(ok).error();
    const QString name = entryName(entry);
    auto node = volume_->inode(uint32_t(entry.dataOffset));
    if (!node)
        return std::move(node).error();
    return volume_->fileSource(*node, name);
}

QJsonObject ExtContainer::info() const
{
    QJsonObject o;
    o[QStringLiteral("format")] = volume_->kind();
    o[QStringLiteral("filesystem")] = volume_->kind();
    o[QStringLiteral("block_size")] = double(volume_->blockSize());
    o[QStringLiteral("block_count")] = double(volume_->blockCount());
    o[QStringLiteral("inode_count")] = double(volume_->inodeCount());
    o[QStringLiteral("revision")] = double(volume_->revision());
    if (!volume_->label().isEmpty())
        o[QStringLiteral("label")] = bytesToText(volume_->label());
    o[QStringLiteral("features")] = QJsonArray::fromStringList(volume_->features());
    o[QStringLiteral("reader")] = QStringLiteral("ArchiveScope's ext reader");
    return o;
}

int probeExt(const ByteSource &volume)
{
    return ext::looksLikeExt(volume) ? 50 : 0;
}

} // namespace asc
