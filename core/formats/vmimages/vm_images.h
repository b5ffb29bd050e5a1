// SPDX-License-Identifier: MIT
#pragma once
// The other virtual-machine disk formats, read by us as block maps: VDI (dynamic and fixed), VHD
// (fixed and dynamic; differencing refused), VMDK (monolithicSparse / hosted sparse extents and
// streamOptimized with compressed grains), VHDX (dynamic and fixed; a non-empty log and
// differencing disks refused). Each probes by content and is a byte source like qcow2.

#include "formats/image/block_image.h"

namespace asc {

int probeVdi(std::span<const char> head);
int probeVhd(const ByteSource &file, std::span<const char> head);
int probeVmdk(std::span<const char> head);
int probeVhdx(std::span<const char> head);

Result<std::shared_ptr<DiskImage>> openVdi(SourcePtr file);
Result<std::shared_ptr<DiskImage>> openVhd(SourcePtr file);
Result<std::shared_ptr<DiskImage>> openVmdk(SourcePtr file);
Result<std::shared_ptr<DiskImage>> openVhdx(SourcePtr file);

// The name of a disk image format we recognise but do not read ("Parallels", "Bochs", ...), or empty.
// `lookAtEnd`: also read the last 512 bytes (a DMG's trailer), when that is a cheap read of a file.
QString unreadImageFormat(const ByteSource &file, std::span<const char> head, bool lookAtEnd);

} // namespace asc
