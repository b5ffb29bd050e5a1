// SPDX-License-Identifier: MIT
#pragma once
// Decrypts a dm-crypt volume's sectors as the kernel does, with Nettle's AES: xts-plain64 and
// xts-plain (cryptsetup's default for LUKS1 and LUKS2), cbc-essiv:<hash> (old LUKS1 volumes) and
// cbc-plain64/cbc-plain. IVs count 512-byte sectors from the start of the data whatever the
// sector size (dm-crypt without iv_large_sectors, as cryptsetup sets LUKS up). Other ciphers
// (serpent, twofish, adiantum, a kernel crypto API name) are refused by name.

#include "io/result.h"

#include <QByteArray>
#include <QString>
#include <memory>
#include <span>

namespace asc {

class SectorCipher {
public:
    virtual ~SectorCipher() = default;
    // Decrypts one sector in place; `sector512` is its offset from the data start in 512-byte units.
    virtual void decrypt(uint64_t sector512, std::span<char> sector) const = 0;

    // `key` is the volume key; `name` is what errors name.
    static Result<std::unique_ptr<SectorCipher>> make(const QString &cipher, const QString &mode, const QByteArray &key, const QString &name);
};

} // namespace asc
