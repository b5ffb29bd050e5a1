// SPDX-License-Identifier: MIT
#pragma once
// Thin volumes (dm-thin, as Proxmox VE keeps its guests' disks): the pool's metadata volume holds
// B-trees mapping each thin device's blocks to blocks of the pool's data volume (the kernel's
// drivers/md/dm-thin-metadata.c and persistent-data/). Blocks no tree maps read as zeros.
// Old-style snapshots are refused by name here too.

#include "lvm_volume_source.h"

namespace asc::lvm {

Result<SourcePtr> openThinVolume(const std::shared_ptr<const VolumeGroupView> &group, const LogicalVolume &lv, const QString &name, int depth);
Result<SourcePtr> openSnapshot(const std::shared_ptr<const VolumeGroupView> &group, const LogicalVolume &lv, const Segment &segment, const QString &name, int depth);

} // namespace asc::lvm
