// SPDX-License-Identifier: MIT
#pragma once
// The libarchive-backed formats, for the format registry.

#include "formats/format.h"

namespace asc {

std::vector<Format> archiveFormats();

} // namespace asc
