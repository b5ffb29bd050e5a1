// SPDX-License-Identifier: MIT
#pragma once
// What a partition holds, by magic numbers: ext2/3/4, FAT12/16/32, exFAT, NTFS, ISO 9660, swap,
// LVM, LUKS, BitLocker, XFS, btrfs, HFS+, UFS, ZFS; else bytes as even as random ones (a volume
// encrypted without a header). Cheap (reads 70 KiB and 8 bytes); empty when unknown.

#include "io/byte_source.h"

namespace asc {

QString detectFilesystem(const ByteSource &source);
// Whether it names something ArchiveScope does not open (swap, BitLocker, ZFS, random data): such
// a partition is listed, described and readable as bytes, but not expandable.
bool filesystemNotRead(const QString &filesystem);

} // namespace asc
