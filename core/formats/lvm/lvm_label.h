// SPDX-License-Identifier: MIT
#pragma once
// An LVM2 physical volume's label (LABELONE in one of the first four sectors), its PV header (UUID,
// data area) and the current metadata text of its first valid metadata area, every piece CRC-checked
// with LVM's own CRC as lvm2 checks it (lib/format_text/layout.h).

#include "io/byte_source.h"

namespace asc::lvm {

struct PhysicalVolumeLabel {
    QByteArray uuid; // 32 characters, without LVM's dashes
    uint64_t deviceSize = 0;
    uint64_t dataStart = 0; // the first data area's offset (pe_start as the label has it)
    QByteArray metadata; // the current metadata text; empty when the PV has no metadata area
    uint64_t metadataOffset = 0; // where that text starts (for errors)
};

// Whether the first 2 KiB hold an LVM2 label.
bool looksLikePhysicalVolume(std::span<const char> head);
Result<PhysicalVolumeLabel> readPhysicalVolume(const ByteSource &pv);
// LVM's CRC: CRC-32 (reflected 0xEDB88320) from 0xf597a6cf without the final inversion.
uint32_t lvmCrc(const char *data, size_t size);
// "abcdef..." (32) → "abcdef-ghij-..." as lvs prints UUIDs (6-4-4-4-4-4-6).
QByteArray dashedUuid(const QByteArray &uuid);

} // namespace asc::lvm
