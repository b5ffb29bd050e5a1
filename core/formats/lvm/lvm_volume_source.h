// SPDX-License-Identifier: MIT
#pragma once
// A logical volume's bytes: its segments mapped onto physical volumes (linear, striped, the first
// leg of a mirror or raid1) or onto other volumes (raid images, thin volumes through their pool).

#include "lvm_volume_group.h"

#include "io/byte_source.h"

#include <memory>
#include <vector>

namespace asc::lvm {

struct VolumeGroupView {
    VolumeGroup vg;
    std::vector<SourcePtr> pvs; // by VolumeGroup::pvs index; null for a PV we do not have
};

// The source of logical volume `lv` (an error naming what is missing or not read: a PV by its UUID,
// a segment type we do not map). `name` is what errors and nested SPECs call it.
Result<SourcePtr> openVolume(const std::shared_ptr<const VolumeGroupView> &group, QByteArrayView lv, const QString &name, int depth = 0);

} // namespace asc::lvm
