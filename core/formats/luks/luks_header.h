// SPDX-License-Identifier: MIT
#pragma once
// A LUKS1 or LUKS2 header, read as far as reading the volume needs: where the encrypted data lies,
// its cipher and sector size, and the description `info` shows (UUID, label, key slots and their
// PBKDF). The key slots themselves are opened by libcryptsetup (luks_unlock.h), never here.
// On-disk layouts: docs/luks.md (from the LUKS1 and LUKS2 on-disk format specifications).

#include "io/byte_source.h"

#include <QJsonArray>
#include <QJsonObject>

namespace asc {

struct LuksHeader {
    int version = 0; // 1 or 2
    QString uuid;
    QString label; // LUKS2 only
    QString cipher; // "aes"
    QString mode; // "xts-plain64", "cbc-essiv:sha256", ...
    int keyBytes = 0; // of the volume key
    int sectorSize = 512; // LUKS2 may use up to 4096
    uint64_t dataOffset = 0; // bytes from the start of the header to the first encrypted sector
    uint64_t dataSize = 0; // bytes of encrypted data (to the end of the source when dynamic)
    QJsonArray keySlots; // {"slot", "type", "pbkdf", "key_bits"}
    QString integrity; // LUKS2 authenticated encryption (dm-integrity): refused

    // Everything libcryptsetup reads to open a key slot: the headers and key slot areas, which
    // end where the data begins.
    uint64_t metadataBytes() const { return dataOffset; }
    QJsonObject toJson() const;
};

bool looksLikeLuks(std::span<const char> head);
// Reads the header at the start of `source`; refuses what we cannot read by name.
Result<LuksHeader> readLuksHeader(const ByteSource &source);

} // namespace asc
