// SPDX-License-Identifier: MIT
#pragma once
// Disk-image formats (transparent: their virtual disk is probed again) and partition tables,
// for the format registry.

#include "formats/format.h"

namespace asc {

std::vector<Format> imageFormats();

} // namespace asc
