// SPDX-License-Identifier: MIT
#pragma once
// The allocation of what a SPEC names, as a disk: a disk image's extents (like `qemu-img map`),
// a raw file or partition as data with its holes as zeros.

#include "formats/image/extent.h"

#include "io/result.h"

#include <QString>

namespace asc {

Result<std::vector<DiskExtent>> mapDisk(const QString &spec);

} // namespace asc
