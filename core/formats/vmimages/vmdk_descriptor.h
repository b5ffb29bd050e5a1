// SPDX-License-Identifier: MIT
#pragma once
// VMDK descriptor files ("# Disk DescriptorFile"): the disk is the concatenation of the extents
// they list — FLAT files (at an offset), SPARSE files (hosted sparse extents), ZERO ranges — each
// a file beside the descriptor. Extent names leaving the descriptor's folder are refused like
// backing files (unless --allow-backing).

#include "formats/image/disk_image.h"

namespace asc {

bool looksLikeVmdkDescriptor(std::span<const char> head);
Result<std::shared_ptr<DiskImage>> openVmdkDescriptor(SourcePtr descriptor);

} // namespace asc
