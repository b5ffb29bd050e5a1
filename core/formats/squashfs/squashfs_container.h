// SPDX-License-Identifier: MIT
#pragma once
// A squashfs image as a container (squashfs_volume.h reads it), folder by folder; found at the start
// of a source or after an AppImage's runtime. An entry's dataOffset is its inode reference.

#include "squashfs_volume.h"

#include "formats/filesystem/inode_tree_container.h"

namespace asc {

class SquashfsContainer final : public InodeTreeContainer {
public:
    static Result<ContainerPtr> open(SourcePtr source);

    QString formatName() const override { return QStringLiteral("squashfs"); }
    Result<SourcePtr> open(const Entry &entry) override;
    QJsonObject info() const override;
    const SourcePtr &source() const override { return outer_; }

private:
    SquashfsContainer(SourcePtr outer, std::shared_ptr<squashfs::Volume> volume, uint64_t offset);
    Result<void> readFolder(uint64_t folder, const QByteArray &parent, const FolderSink &sink, uint64_t &ordinal, bool report) override;
    uint64_t rootInode() const override { return volume_->rootRef(); }

    SourcePtr outer_;
    std::shared_ptr<squashfs::Volume> volume_;
    uint64_t offset_;
};

// `quick`: magic at the start only (an AppImage's image is found past its runtime, a second read).
int probeSquashfs(const ByteSource &source, std::span<const char> head, bool quick);

} // namespace asc
