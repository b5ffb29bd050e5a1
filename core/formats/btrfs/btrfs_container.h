// SPDX-License-Identifier: MIT
#pragma once
// A btrfs filesystem as a container (btrfs_volume.h reads it), folder by folder: subvolumes and
// snapshots show as the folders they are mounted as. An entry's dataOffset packs the subvolume (an
// index into the trees met so far) and the inode.

#include "btrfs_volume.h"

#include "formats/filesystem/inode_tree_container.h"

#include <mutex>

namespace asc {

class BtrfsContainer final : public InodeTreeContainer {
public:
    static Result<ContainerPtr> open(SourcePtr volume);

    QString formatName() const override { return QStringLiteral("btrfs"); }
    Result<SourcePtr> open(const Entry &entry) override;
    QJsonObject info() const override;
    const SourcePtr &source() const override { return volume_->source(); }

private:
    explicit BtrfsContainer(std::shared_ptr<btrfs::Volume> volume);
    Result<void> readFolder(uint64_t folder, const QByteArray &parent, const FolderSink &sink, uint64_t &ordinal, bool report) override;
    uint64_t rootInode() const override { return pack(btrfs::Volume::kFsTree, btrfs::Volume::kRootDir); }
    uint64_t pack(uint64_t tree, uint64_t inode) const;
    std::pair<uint64_t, uint64_t> unpack(uint64_t packed) const;

    std::shared_ptr<btrfs::Volume> volume_;
    mutable std::mutex treesMutex_;
    mutable std::vector<uint64_t> trees_;
};

int probeBtrfs(const ByteSource &volume);

} // namespace asc
