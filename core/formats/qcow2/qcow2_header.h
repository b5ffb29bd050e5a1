// SPDX-License-Identifier: MIT
#pragma once
// The qcow2 header, its extensions, feature names and snapshot table, parsed and validated from
// untrusted bytes (every size bounded by the file and by fixed caps). Spec: shared/specs/qcow2-format.md.

#include "io/byte_source.h"

#include <QJsonObject>
#include <vector>

namespace asc {

struct Qcow2Snapshot {
    QString id;
    QString name;
    uint64_t l1Offset = 0;
    uint32_t l1Size = 0;
    uint64_t diskSize = 0; // 0 when the entry does not say (v2): use the image's size
    int64_t dateSeconds = 0;
    uint32_t dateNanoseconds = 0;
    uint64_t vmClockNanoseconds = 0;
    uint64_t vmStateSize = 0;
};

struct Qcow2Header {
    uint32_t version = 0;
    uint64_t backingFileOffset = 0;
    uint32_t backingFileSize = 0;
    uint32_t clusterBits = 0;
    uint64_t size = 0;
    uint32_t cryptMethod = 0;
    uint32_t l1Size = 0;
    uint64_t l1TableOffset = 0;
    uint64_t refcountTableOffset = 0;
    uint32_t refcountTableClusters = 0;
    uint32_t nbSnapshots = 0;
    uint64_t snapshotsOffset = 0;
    uint64_t incompatibleFeatures = 0;
    uint64_t compatibleFeatures = 0;
    uint64_t autoclearFeatures = 0;
    uint32_t refcountOrder = 4;
    uint32_t headerLength = 72;
    uint8_t compressionType = 0; // 0 zlib (raw deflate), 1 zstd

    QByteArray backingFile; // raw name as stored
    QString backingFormat; // from extension 0xE2792ACA, empty if absent
    QString externalDataFile; // from extension 0x44415441
    bool hasEncryptionHeader = false;
    std::vector<std::pair<int, QString>> featureNames[3]; // per kind: bit, name
    std::vector<Qcow2Snapshot> snapshots;

    uint64_t clusterSize() const { return uint64_t(1) << clusterBits; }
    bool extendedL2() const { return incompatibleFeatures & (1ULL << 4); }
    bool dirty() const { return incompatibleFeatures & 1ULL; }
    bool corrupt() const { return incompatibleFeatures & 2ULL; }
    uint64_t l2Entries() const { return clusterSize() / (extendedL2() ? 16 : 8); }

    QJsonObject toJson() const;
};

// Reads and validates the header of a qcow2 file; refuses (with the reason and offset) what a
// read-only reader cannot serve: encryption, external data files, unknown incompatible features.
Result<Qcow2Header> parseQcow2Header(const ByteSource &file);
bool looksLikeQcow2(std::span<const char> head);

} // namespace asc
