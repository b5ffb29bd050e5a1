// SPDX-License-Identifier: MIT
#pragma once
// An ext2/3/4 filesystem as a container (ext_volume.h reads it): folders read one at a time for
// the tree, the whole volume walked for listings, files opened by inode. Hard links show under
// each of their names; special files are listed; deleted names are not. Thread safe.

#include "ext_volume.h"
#include "formats/filesystem/inode_tree_container.h"

namespace asc {

class ExtContainer final : public InodeTreeContainer {
public:
    static Result<ContainerPtr> open(SourcePtr volume);

    QString formatName() const override { return volume_->kind(); }
    Result<SourcePtr> open(const Entry &entry) override;
    QJsonObject info() const override;
    const SourcePtr &source() const override { return volume_->source(); }

private:
    explicit ExtContainer(std::shared_ptr<ext::Volume> volume);
    Result<void> readFolder(uint64_t folder, const QByteArray &parent, const FolderSink &sink, uint64_t &ordinal, bool report) override;
    uint64_t rootInode() const override { return 2; }
    std::shared_ptr<ext::Volume> volume_;
};

// The registry's confidence for an ext2/3/4 volume (above The Sleuth Kit's, which reads the rest).
int probeExt(const ByteSource &volume);

} // namespace asc
