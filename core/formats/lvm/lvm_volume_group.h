// SPDX-License-Identifier: MIT
#pragma once
// A volume group as its metadata text describes it: physical volumes, logical volumes and their
// segments (lvm2's lib/format_text/import_vsn1.c reads the same fields). Sizes are in bytes here.

#include "lvm_text.h"

#include <QJsonObject>
#include <vector>

namespace asc::lvm {

struct PhysicalVolume {
    QByteArray key; // "pv0": how segments name it
    QByteArray uuid; // 32 characters, dashes removed
    uint64_t peStart = 0; // bytes
    uint64_t peCount = 0;
    uint64_t deviceSize = 0; // bytes
};

// Where a run of a segment's extents lies: on a physical volume, or on another (hidden) volume.
struct Area {
    int pv = -1; // index in VolumeGroup::pvs, or -1
    QByteArray lv; // a sub-volume's name when pv is -1
    uint64_t extent = 0; // first physical extent (pv) or logical extent (lv)
};

struct Segment {
    uint64_t startExtent = 0;
    uint64_t extentCount = 0;
    QByteArray type; // "striped", "mirror", "raid1", "thin", "thin-pool", "snapshot", ...
    uint64_t stripeSize = 0; // bytes, striped with more than one area
    std::vector<Area> areas; // stripes, or the legs of a mirror (the first is read)
    std::vector<QByteArray> otherLegs; // mirror and raid legs not read, for the details
    // thin
    QByteArray pool;
    uint64_t deviceId = 0;
    // thin-pool
    QByteArray poolMetadata, poolData;
    uint64_t chunkSize = 0; // bytes (thin pools, snapshots)
    uint64_t transactionId = 0;
    // old-style snapshot
    QByteArray origin, cowStore;
};

struct LogicalVolume {
    QByteArray name;
    QByteArray uuid;
    std::vector<QByteArray> status;
    std::vector<QByteArray> tags;
    std::vector<Segment> segments;
    bool visible = false;
    uint64_t extents() const;
    // The words `lvs` shows as the segment type ("linear", "striped", "thin", ...).
    QByteArray kind() const;
};

struct VolumeGroup {
    QByteArray name;
    QByteArray uuid;
    int64_t seqno = 0;
    uint64_t extentSize = 0; // bytes
    std::vector<PhysicalVolume> pvs;
    std::vector<LogicalVolume> lvs;

    const LogicalVolume *volume(QByteArrayView name) const;
    int pvIndex(QByteArrayView key) const;
    QJsonObject toJson() const;
};

// The volume group of a PV's metadata text (the text holds one); errors name `where`.
Result<VolumeGroup> parseVolumeGroup(const Section &text, const QString &where);

} // namespace asc::lvm
