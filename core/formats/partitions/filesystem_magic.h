// SPDX-License-Identifier: MIT
#pragma once
// What a partition holds, by magic numbers: ext2/3/4, FAT12/16/32, exFAT, NTFS, ISO 9660, swap,
// LVM, XFS, btrfs, HFS+. Cheap (reads at most 64 KiB + one sector); empty when unknown.

#include "io/byte_source.h"

namespace asc {

QString detectFilesystem(const ByteSource &source);

} // namespace asc
