// SPDX-License-Identifier: MIT
#pragma once
// An XFS filesystem as a container (xfs_volume.h reads it), folder by folder like ext: hard links
// show under each of their names, special files are listed. Thread safe.

#include "xfs_volume.h"

#include "formats/filesystem/inode_tree_container.h"

namespace asc {

class XfsContainer final : public InodeTreeContainer {
public:
    static Result<ContainerPtr> open(SourcePtr volume);

    QString formatName() const override { return QStringLiteral("xfs"); }
    Result<SourcePtr> open(const Entry &entry) override;
    QJsonObject info() const override;
    const SourcePtr &source() const override { return volume_->source(); }

private:
    explicit XfsContainer(std::shared_ptr<xfs::Volume> volume);
    Result<void> readFolder(uint64_t folder, const QByteArray &parent, const FolderSink &sink, uint64_t &ordinal, bool report) override;
    uint64_t rootInode() const override { return volume_->rootInode(); }
    std::shared_ptr<xfs::Volume> volume_;
};

int probeXfs(std::span<const char> head);

} // namespace asc
