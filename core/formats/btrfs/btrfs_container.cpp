// SPDX-License-Identifier: MIT
#include "btrfs_container.h"

#include "io/byte_text.h"

#include <QJsonArray>

namespace asc {

namespace {

constexpr int kInodeBits = 40;

} // namespace

int probeBtrfs(const ByteSource &volume)
{
    return btrfs::looksLikeBtrfs(volume) ? 92 : 0;
}

BtrfsContainer::BtrfsContainer(std::shared_ptr<btrfs::Volume> volume)
    : volume_(std::move(volume))
{
}

uint64_t BtrfsContainer::pack(uint64_t tree, uint64_t inode) const
{
    std::lock_guard lock(treesMutex_);
    auto it = std::find(trees_.begin(), trees_.end(), tree);
    size_t index = size_t(it - trees_.begin());
    if (it == trees_.end())
        trees_.push_back(tree);
    return (uint64_t(index) << kInodeBits) | (inode & ((uint64_t(1) << kInodeBits) - 1));
}

std::pair<uint64_t, uint64_t> BtrfsContainer::unpack(uint64_t packed) const
{
    std::lock_guard lock(treesMutex_);
    const size_t index = size_t(packed >> kInodeBits);
    return {index < trees_.size() ? trees_[index] : 0, packed & ((uint64_t(1) << kInodeBits) - 1)};
}

Result<ContainerPtr> BtrfsContainer::open(SourcePtr source)
{
    auto volume = btrfs::Volume::open(std::move(source));
    if (!volume)
        return std::move(volume).error();
    auto root = (*volume)->inode(btrfs::Volume::kFsTree, btrfs::Volume::kRootDir);
    if (!root)
        return std::move(root).error();
    if (!root->isDir())
        return Error::format((*volume)->where(root->tree, root->number), std::nullopt, QStringLiteral("the root inode is not a folder"));
    std::shared_ptr<BtrfsContainer> container(new BtrfsContainer(std::move(volume).value()));
    container->pack(btrfs::Volume::kFsTree, 0);
    return ContainerPtr(container);
}

Result<void> BtrfsContainer::readFolder(uint64_t folder, const QByteArray &parent, const FolderSink &sink, uint64_t &ordinal, bool report)
{
    const auto [tree, number] = unpack(folder);
    auto dir = volume_->inode(tree, number);
    if (!dir)
        return std::move(dir).error();
    auto names = volume_->directory(*dir);
    if (!names)
        return std::move(names).error();
    for (const btrfs::DirEntry &name : *names) {
        Entry e;
        e.path = parent + name.name;
        e.dataOffset = pack(name.tree, name.inode);
        e.ordinal = ordinal++;
        auto node = volume_->inode(name.tree, name.inode);
        if (!node) {
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
        if (name.subvolume)
            e.detail = "subvolume " + QByteArray::number(qulonglong(name.tree));
        if (e.type == EntryType::File) {
            e.size = node->size;
            if (node->links > 1)
                e.detail = QByteArray::number(node->links) + " links";
        } else if (e.type == EntryType::Symlink) {
            auto target = volume_->symlinkTarget(*node);
            if (target)
                e.target = *target;
            else
                setUnreadable(e, std::move(target).error(), report);
        } else if (e.type == EntryType::CharDev || e.type == EntryType::BlockDev) {
            setLinuxDevice(e, uint32_t(node->rdev));
        }
        if (!sink(std::move(e)))
            return {};
    }
    return {};
}

Result<SourcePtr> BtrfsContainer::open(const Entry &entry)
{
    if (auto ok = checkOpenable(entry); !ok)
        return std::move(ok).error();
    const auto [tree, number] = unpack(entry.dataOffset);
    auto node = volume_->inode(tree, number);
    if (!node)
        return std::move(node).error();
    return volume_->fileSource(*node, entryName(entry));
}

QJsonObject BtrfsContainer::info() const
{
    QJsonObject o;
    o[QStringLiteral("format")] = QStringLiteral("btrfs");
    o[QStringLiteral("filesystem")] = QStringLiteral("btrfs");
    o[QStringLiteral("uuid")] = volume_->uuid();
    o[QStringLiteral("checksum")] = volume_->checksumName();
    o[QStringLiteral("sector_size")] = double(volume_->sectorSize());
    o[QStringLiteral("node_size")] = double(volume_->nodeSize());
    o[QStringLiteral("total_bytes")] = double(volume_->totalBytes());
    o[QStringLiteral("devices")] = double(volume_->devices());
    if (!volume_->label().isEmpty())
        o[QStringLiteral("label")] = bytesToText(volume_->label());
    o[QStringLiteral("features")] = QJsonArray::fromStringList(volume_->features());
    o[QStringLiteral("reader")] = QStringLiteral("ArchiveScope's btrfs reader");
    return o;
}

} // namespace asc
