// SPDX-License-Identifier: MIT
#pragma once
// An ext2/3/4 filesystem as a container (ext_volume.h reads it): folders read one at a time for
// the tree, the whole volume walked for listings, files opened by inode. Hard links show under
// each of their names; special files are listed; deleted names are not. Thread safe.

#include "ext_volume.h"
#include "vfs/container.h"

namespace asc {

class ExtContainer final : public Container {
public:
    static Result<ContainerPtr> open(SourcePtr volume);

    QString formatName() const override { return volume_->kind(); }
    Result<void> list(const EntrySink &sink) override;
    Result<SourcePtr> open(const Entry &entry) override;
    bool listsFolderByFolder() const override { return true; }
    Result<void> listDirectory(const Entry &dir, const EntrySink &sink) override;
    Result<Entry> find(const QByteArray &path) override;
    bool impliesDirectories() const override { return false; }
    QJsonObject info() const override;
    const SourcePtr &source() const override { return volume_->source(); }

private:
    explicit ExtContainer(std::shared_ptr<ext::Volume> volume);
    // The entries of one folder (its inode), named under `parent` ("" or "a/b/").
    Result<void> readFolder(uint32_t folder, const QByteArray &parent, const std::function<bool(Entry &&)> &sink, uint64_t &ordinal);
    std::shared_ptr<ext::Volume> volume_;
};

// The registry's confidence for an ext2/3/4 volume (above The Sleuth Kit's, which reads the rest).
int probeExt(const ByteSource &volume);

} // namespace asc
