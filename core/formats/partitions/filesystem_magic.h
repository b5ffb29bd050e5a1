// SPDX-License-Identifier: MIT
#pragma once
// What a partition holds, by magic numbers: ext2/3/4, FAT12/16/32, exFAT, NTFS, ISO 9660, swap,
// LVM, LUKS, BitLocker, XFS, btrfs, HFS+. Cheap (reads at most 64 KiB + one sector); empty when unknown.

#include "io/byte_source.h"

namespace asc {

QString detectFilesystem(const ByteSource &source);
// Whether it names something ArchiveScope does not open yet (LVM, swap, LUKS, BitLocker, XFS,
// btrfs): such a partition is listed, described and readable as bytes, but not expandable.
bool filesystemNotRead(const QString &filesystem);

} // namespace asc
