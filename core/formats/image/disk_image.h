// SPDX-License-Identifier: MIT
#pragma once
// A disk image's virtual disk: a byte source plus what `info` and `map` show. qcow2 (and later
// VMDK, VDI, VHD, VHDX) implement it; raw files are their own disk.

#include "extent.h"
#include "io/byte_source.h"

#include <QJsonObject>
#include <functional>

namespace asc {

class DiskImage : public ByteSource {
public:
    // Header fields, features, snapshots, backing chain.
    virtual QJsonObject info() const = 0;
    // Extents of [start, start+length) of the virtual disk.
    virtual Result<std::vector<DiskExtent>> map(uint64_t start, uint64_t length) const = 0;
    virtual QString formatName() const = 0;
};

// Where a backing file may be followed (security: images name arbitrary paths).
struct BackingPolicy {
    // Follow absolute paths and paths leaving the image's folder without asking.
    bool allowOutside = false;
    // Asked (may block, from a worker thread) for a path outside the image's folder; true = follow.
    std::function<bool(const QString &image, const QString &backing)> askOutside;
};
// Process-wide policy (the CLI sets it from --allow-backing, the GUI installs a question).
BackingPolicy &backingPolicy();

} // namespace asc
