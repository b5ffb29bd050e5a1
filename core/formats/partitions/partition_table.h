// SPDX-License-Identifier: MIT
#pragma once
// MBR (primary, extended and logical partitions) and GPT (header and entry-array CRC32 checked,
// falling back to the backup header with a warning), parsed from untrusted bytes.

#include "io/byte_source.h"

#include <QJsonObject>
#include <vector>

namespace asc {

struct Partition {
    int number = 0; // Linux numbering: MBR slots 1-4, logical from 5; GPT entry index + 1
    uint64_t start = 0; // bytes
    uint64_t length = 0; // bytes
    QString type; // "0x83" or a GUID
    QString typeName; // "Linux", "EFI System", ...
    QString name; // GPT partition name
    QString guid; // GPT unique GUID
    QString kind; // "primary", "extended", "logical", "gpt"
    bool bootable = false;
};

struct PartitionTable {
    QString label; // "dos" or "gpt"
    QString diskId; // MBR disk signature or GPT disk GUID
    uint32_t sectorSize = 512;
    std::vector<Partition> partitions;
    QStringList warnings;
    QJsonObject toJson() const;
};

// 0 = no table, else the confidence for the format registry.
int probePartitionTable(std::span<const char> head);
Result<PartitionTable> readPartitionTable(const ByteSource &disk);

} // namespace asc
