// SPDX-License-Identifier: MIT
#pragma once
// A UDF volume as a container (udf_volume.h reads it), folder by folder: a DVD or Blu-ray image,
// a Windows install ISO (its ISO 9660 side is the same files), a disk formatted by mkudffs. An
// entry's dataOffset is its file entry's address (partition << 32 | block).

#include "udf_volume.h"

#include "formats/filesystem/inode_tree_container.h"

namespace asc {

class UdfContainer final : public InodeTreeContainer {
public:
    static Result<ContainerPtr> open(SourcePtr source);

    QString formatName() const override { return QStringLiteral("udf"); }
    Result<SourcePtr> open(const Entry &entry) override;
    QJsonObject info() const override;
    const SourcePtr &source() const override { return volume_->source(); }

private:
    explicit UdfContainer(std::shared_ptr<udf::Volume> volume);
    Result<void> readFolder(uint64_t folder, const QByteArray &parent, const FolderSink &sink, uint64_t &ordinal, bool report) override;
    uint64_t rootInode() const override { return volume_->root().key(); }

    std::shared_ptr<udf::Volume> volume_;
};

// 96 when the head carries UDF's volume recognition sequence (BEA01, NSR02/NSR03): above
// libarchive's ISO 9660, which an ISO with both would otherwise show.
int probeUdf(std::span<const char> head);

} // namespace asc
