// SPDX-License-Identifier: MIT
#pragma once
// A filesystem (FAT12/16/32, exFAT, NTFS, ext2/3/4, HFS+, UFS) read through The Sleuth Kit from
// our own byte source (tsk_img_open_external: no temporary files, no loop mounts, no root), as a
// container. Deleted entries are not listed. ISO 9660 is left to libarchive, which reads Rock
// Ridge and Joliet names better. Calls into TSK are serialised per filesystem.

#include "vfs/container.h"

#include <mutex>

namespace asc {

class TskContainer final : public Container {
public:
    static Result<ContainerPtr> open(SourcePtr volume);
    ~TskContainer() override;

    QString formatName() const override { return formatName_; }
    Result<void> list(const EntrySink &sink) override;
    Result<SourcePtr> open(const Entry &entry) override;
    // A folder at a time, for the GUI tree; find() descends folders instead of walking the volume.
    bool listsFolderByFolder() const override { return true; }
    Result<void> listDirectory(const Entry &dir, const EntrySink &sink) override;
    Result<Entry> find(const QByteArray &path) override;
    bool impliesDirectories() const override { return false; } // every folder is an entry
    QJsonObject info() const override;
    const SourcePtr &source() const override { return volume_; }

    struct Handles;

private:
    explicit TskContainer(SourcePtr volume);
    SourcePtr volume_;
    std::shared_ptr<Handles> handles_; // image + filesystem, shared with open file sources
    QString formatName_;
};

// 0, or the registry confidence when the volume carries a filesystem TSK reads.
int probeTskFilesystem(const ByteSource &volume);

} // namespace asc
