// SPDX-License-Identifier: MIT
#include "squashfs_container.h"

#include "io/byte_text.h"
#include "io/slice_source.h"

#include <cstring>

namespace asc {

namespace {

EntryType typeOf(uint16_t type)
{
    switch (type) {
    case 1:
    case 8: return EntryType::Dir;
    case 3:
    case 10: return EntryType::Symlink;
    case 4:
    case 11: return EntryType::BlockDev;
    case 5:
    case 12: return EntryType::CharDev;
    case 6:
    case 13: return EntryType::Fifo;
    case 7:
    case 14: return EntryType::Socket;
    default: return EntryType::File;
    }
}

} // namespace

int probeSquashfs(const ByteSource &source, std::span<const char> head, bool quick)
{
    if (quick)
        return head.size() >= 4 && std::memcmp(head.data(), "hsqs", 4) == 0 ? 95 : 0;
    const auto offset = squashfs::squashfsOffset(source, head);
    return offset ? (*offset == 0 ? 95 : 60) : 0;
}

SquashfsContainer::SquashfsContainer(SourcePtr outer, std::shared_ptr<squashfs::Volume> volume, uint64_t offset)
    : outer_(std::move(outer)),
      volume_(std::move(volume)),
      offset_(offset)
{
}

Result<ContainerPtr> SquashfsContainer::open(SourcePtr source)
{
    auto head = readHead(*source, 4096);
    if (!head)
        return std::move(head).error();
    const auto offset = squashfs::squashfsOffset(*source, std::span<const char>(head->constData(), size_t(head->size())));
    if (!offset)
        return Error::format(source->name(), 0, QStringLiteral("no squashfs image"));
    SourcePtr image = source;
    if (*offset)
        image = std::make_shared<SliceSource>(source, *offset, source->size() - *offset, source->name());
    auto volume = squashfs::Volume::open(image);
    if (!volume)
        return std::move(volume).error();
    auto root = (*volume)->inode((*volume)->rootRef());
    if (!root)
        return std::move(root).error();
    if (!root->isDir())
        return Error::format(source->name(), std::nullopt, QStringLiteral("the squashfs root inode is not a folder"));
    return ContainerPtr(new SquashfsContainer(std::move(source), std::move(volume).value(), *offset));
}

Result<void> SquashfsContainer::readFolder(uint64_t folder, const QByteArray &parent, const FolderSink &sink, uint64_t &ordinal, bool report)
{
    auto dir = volume_->inode(folder);
    if (!dir)
        return std::move(dir).error();
    if (!dir->isDir())
        return Error::format(volume_->where(folder), std::nullopt, QStringLiteral("not a folder"));
    auto names = volume_->directory(*dir);
    if (!names)
        return std::move(names).error();
    for (const squashfs::DirEntry &name : *names) {
        Entry e;
        e.path = parent + name.name;
        e.dataOffset = name.ref;
        e.ordinal = ordinal++;
        auto node = volume_->inode(name.ref);
        if (!node) {
            setUnreadable(e, std::move(node).error(), report);
            if (!sink(std::move(e)))
                return {};
            continue;
        }
        e.type = typeOf(node->type);
        e.mode = node->mode & 07777;
        e.uid = node->uid;
        e.gid = node->gid;
        e.hasMtime = true;
        e.mtime = node->mtime;
        if (e.type == EntryType::File) {
            e.size = node->size;
            if (node->links > 1)
                e.detail = QByteArray::number(node->links) + " links";
        } else if (e.type == EntryType::Symlink) {
            e.target = node->target;
        } else if (e.type == EntryType::CharDev || e.type == EntryType::BlockDev) {
            setLinuxDevice(e, node->device);
        }
        if (!sink(std::move(e)))
            return {};
    }
    return {};
}

Result<SourcePtr> SquashfsContainer::open(const Entry &entry)
{
    if (auto ok = checkOpenable(entry); !ok)
        return std::move(ok).error();
    auto node = volume_->inode(entry.dataOffset);
    if (!node)
        return std::move(node).error();
    return volume_->fileSource(*node, entryName(entry));
}

QJsonObject SquashfsContainer::info() const
{
    QJsonObject o;
    o[QStringLiteral("format")] = QStringLiteral("squashfs");
    o[QStringLiteral("compression")] = volume_->compressionName();
    o[QStringLiteral("block_size")] = double(volume_->blockSize());
    o[QStringLiteral("inode_count")] = double(volume_->inodeCount());
    o[QStringLiteral("bytes_used")] = double(volume_->bytesUsed());
    if (offset_)
        o[QStringLiteral("offset")] = double(offset_); // past an AppImage's runtime
    o[QStringLiteral("reader")] = QStringLiteral("ArchiveScope's squashfs reader");
    return o;
}

} // namespace asc
