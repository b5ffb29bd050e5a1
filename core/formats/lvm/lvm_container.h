// SPDX-License-Identifier: MIT
#pragma once
// An LVM2 physical volume as a container: its volume group as a folder, each visible logical volume
// in it as an entry whose content is the mapped volume (probed again, like a partition). Volumes
// that need a physical volume this image does not hold are listed with that as their problem.

#include "lvm_volume_source.h"

#include "vfs/container.h"

namespace asc {

class LvmContainer final : public Container {
public:
    static Result<ContainerPtr> open(SourcePtr pv);

    QString formatName() const override { return QStringLiteral("lvm2"); }
    Result<void> list(const EntrySink &sink) override;
    Result<SourcePtr> open(const Entry &entry) override;
    Result<Entry> find(const QByteArray &path) override;
    QJsonObject info() const override;
    bool impliesDirectories() const override { return false; }
    const SourcePtr &source() const override { return pv_; }

private:
    LvmContainer(SourcePtr pv, std::shared_ptr<const lvm::VolumeGroupView> group, QByteArray pvUuid);
    SourcePtr pv_;
    std::shared_ptr<const lvm::VolumeGroupView> group_;
    QByteArray pvUuid_;
    std::vector<Entry> entries_;
};

int probeLvm(std::span<const char> head);

} // namespace asc
