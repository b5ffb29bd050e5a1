// SPDX-License-Identifier: MIT
#include "udf_container.h"

#include <QJsonObject>

namespace asc {

namespace {

EntryType typeOf(uint8_t fileType)
{
    switch (fileType) {
    case 4: return EntryType::Dir;
    case 6: return EntryType::BlockDev;
    case 7: return EntryType::CharDev;
    case 9: return EntryType::Fifo;
    case 10: return EntryType::Socket;
    case 12: return EntryType::Symlink;
    default: return EntryType::File; // 5, and the types a reader shows as plain data
    }
}

} // namespace

int probeUdf(std::span<const char> head)
{
    return udf::hasUdfRecognition(head) ? 96 : 0;
}

UdfContainer::UdfContainer(std::shared_ptr<udf::Volume> volume)
    : volume_(std::move(volume))
{
}

Result<ContainerPtr> UdfContainer::open(SourcePtr source)
{
    auto volume = udf::Volume::open(std::move(source));
    if (!volume)
        return std::move(volume).error();
    auto root = (*volume)->node((*volume)->root());
    if (!root)
        return std::move(root).error();
    if (!root->isDir())
        return Error::format((*volume)->source()->name(), std::nullopt, QStringLiteral("UDF: the root is not a folder"));
    return ContainerPtr(new UdfContainer(std::move(volume).value()));
}

Result<void> UdfContainer::readFolder(uint64_t folder, const QByteArray &parent, const FolderSink &sink, uint64_t &ordinal, bool report)
{
    const QString where = parent.isEmpty() ? volume_->source()->name() : volume_->source()->name() + QStringLiteral("!/") + QString::fromUtf8(parent.chopped(1));
    auto dir = volume_->node(udf::Address::fromKey(folder));
    if (!dir)
        return std::move(dir).error();
    if (!dir->isDir())
        return Error::format(where, std::nullopt, QStringLiteral("not a folder"));
    auto names = volume_->directory(*dir, where);
    if (!names)
        return std::move(names).error();
    for (const udf::DirEntry &name : *names) {
        Entry e;
        e.path = parent + name.name;
        e.dataOffset = name.icb.key();
        e.ordinal = ordinal++;
        auto node = volume_->node(name.icb);
        if (!node) {
            e.type = name.dir ? EntryType::Dir : EntryType::File;
            setUnreadable(e, std::move(node).error(), report);
            if (!sink(std::move(e)))
                return {};
            continue;
        }
        e.type = typeOf(node->fileType);
        e.mode = node->permissions;
        e.uid = node->uid;
        e.gid = node->gid;
        e.hasMtime = true;
        e.mtime = node->mtime;
        e.mtimeNsec = node->mtimeNsec;
        if (e.type == EntryType::File) {
            e.size = node->size;
            if (node->links > 1)
                e.detail = QByteArray::number(node->links) + " links";
        } else if (e.type == EntryType::Symlink) {
            auto target = volume_->linkTarget(*node, entryName(e));
            if (!target)
                setUnreadable(e, std::move(target).error(), report);
            else
                e.target = *target;
        }
        if (!sink(std::move(e)))
            return {};
    }
    return {};
}

Result<SourcePtr> UdfContainer::open(const Entry &entry)
{
    if (auto ok = checkOpenable(entry); !ok)
        return std::move(ok).error();
    auto node = volume_->node(udf::Address::fromKey(entry.dataOffset));
    if (!node)
        return std::move(node).error();
    return volume_->content(*node, entryName(entry));
}

QJsonObject UdfContainer::info() const
{
    QJsonObject o;
    o[QStringLiteral("format")] = QStringLiteral("udf");
    if (!volume_->revision().isEmpty())
        o[QStringLiteral("udf_revision")] = volume_->revision();
    o[QStringLiteral("volume")] = volume_->volumeName();
    o[QStringLiteral("block_size")] = double(volume_->blockSize());
    o[QStringLiteral("metadata_partition")] = volume_->hasMetadataPartition();
    o[QStringLiteral("reader")] = QStringLiteral("ArchiveScope's UDF reader");
    return o;
}

} // namespace asc
