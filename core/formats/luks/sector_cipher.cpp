// SPDX-License-Identifier: MIT
#include "sector_cipher.h"

#include <QCryptographicHash>
#include <QtEndian>
#include <cstring>
#include <nettle/aes.h>
#include <nettle/cbc.h>
#include <vector>

namespace asc {

namespace {

// One AES key of 128, 192 or 256 bits, encrypting or decrypting.
struct AesKey {
    union {
        aes128_ctx k128;
        aes192_ctx k192;
        aes256_ctx k256;
    };
    nettle_cipher_func *encrypt = nullptr;
    nettle_cipher_func *decrypt = nullptr;

    AesKey() { std::memset(&k256, 0, sizeof k256); }
    ~AesKey() { ::explicit_bzero(&k256, sizeof k256); }
    AesKey(const AesKey &) = delete;
    AesKey &operator=(const AesKey &) = delete;

    // For `decrypting` a decryption schedule, else an encryption one.
    bool set(std::span<const uint8_t> key, bool decrypting)
    {
        switch (key.size()) {
        case 16:
            decrypting ? aes128_set_decrypt_key(&k128, key.data()) : aes128_set_encrypt_key(&k128, key.data());
            encrypt = reinterpret_cast<nettle_cipher_func *>(aes128_encrypt);
            decrypt = reinterpret_cast<nettle_cipher_func *>(aes128_decrypt);
            return true;
        case 24:
            decrypting ? aes192_set_decrypt_key(&k192, key.data()) : aes192_set_encrypt_key(&k192, key.data());
            encrypt = reinterpret_cast<nettle_cipher_func *>(aes192_encrypt);
            decrypt = reinterpret_cast<nettle_cipher_func *>(aes192_decrypt);
            return true;
        case 32:
            decrypting ? aes256_set_decrypt_key(&k256, key.data()) : aes256_set_encrypt_key(&k256, key.data());
            encrypt = reinterpret_cast<nettle_cipher_func *>(aes256_encrypt);
            decrypt = reinterpret_cast<nettle_cipher_func *>(aes256_decrypt);
            return true;
        default:
            return false;
        }
    }
    const void *context() const { return &k256; }
};

std::span<const uint8_t> bytes(const QByteArray &key, qsizetype from, qsizetype length)
{
    return {reinterpret_cast<const uint8_t *>(key.constData()) + from, size_t(length)};
}

void xorInto(uint8_t *data, const uint64_t *with, size_t words)
{
    for (size_t w = 0; w < words; ++w) {
        uint64_t v;
        std::memcpy(&v, data + w * 8, 8);
        v ^= with[w];
        std::memcpy(data + w * 8, &v, 8);
    }
}

// The IV's sector number: 64 bits little-endian (plain64), or its low 32 bits (plain).
void sectorIv(uint8_t iv[16], uint64_t sector512, bool plain32)
{
    std::memset(iv, 0, 16);
    qToLittleEndian<uint64_t>(plain32 ? (sector512 & 0xffffffffu) : sector512, iv);
}

class XtsCipher final : public SectorCipher {
public:
    XtsCipher(bool plain32)
        : plain32_(plain32)
    {
    }
    bool setKey(const QByteArray &key)
    {
        const qsizetype half = key.size() / 2;
        return key.size() % 2 == 0 && data_.set(bytes(key, 0, half), true) && tweak_.set(bytes(key, half, half), false);
    }
    void decrypt(uint64_t sector512, std::span<char> sector) const override
    {
        // XTS as IEEE 1619 has it, with the block cipher applied to the whole sector at once:
        // Nettle's xts_decrypt_message calls AES one 16-byte block at a time, which kept reads
        // near 200 MB/s; its bulk AES (AES-NI, several blocks in flight) is many times that.
        // Sectors are whole blocks (512 to 4096 bytes), so no ciphertext stealing.
        uint8_t iv[16];
        sectorIv(iv, sector512, plain32_);
        alignas(16) uint64_t tweak[2];
        tweak_.encrypt(tweak_.context(), 16, reinterpret_cast<uint8_t *>(tweak), iv);
        thread_local std::vector<uint64_t> tweaks;
        const size_t words = sector.size() / 8;
        tweaks.resize(words);
        for (size_t w = 0; w < words; w += 2) {
            tweaks[w] = tweak[0];
            tweaks[w + 1] = tweak[1];
            // The next tweak: times x in GF(2^128), little-endian (the carry folds in as 0x87).
            const uint64_t lo = qFromLittleEndian(tweak[0]), hi = qFromLittleEndian(tweak[1]);
            const uint64_t carry = hi >> 63;
            tweak[1] = qToLittleEndian((hi << 1) | (lo >> 63));
            tweak[0] = qToLittleEndian((lo << 1) ^ (carry * 0x87));
        }
        auto *p = reinterpret_cast<uint8_t *>(sector.data());
        xorInto(p, tweaks.data(), words);
        data_.decrypt(data_.context(), sector.size(), p, p);
        xorInto(p, tweaks.data(), words);
    }

private:
    AesKey data_;
    AesKey tweak_;
    bool plain32_;
};

class CbcCipher final : public SectorCipher {
public:
    enum class Iv { Plain,
                    Plain64,
                    Essiv };
    explicit CbcCipher(Iv iv)
        : iv_(iv)
    {
    }
    bool setKey(const QByteArray &key, QCryptographicHash::Algorithm essivHash)
    {
        if (!data_.set(bytes(key, 0, key.size()), true))
            return false;
        if (iv_ != Iv::Essiv)
            return true;
        // ESSIV: the IV is the sector number encrypted with the hash of the volume key.
        QByteArray salt = QCryptographicHash::hash(key, essivHash);
        const bool set = essiv_.set(bytes(salt, 0, salt.size()), false);
        ::explicit_bzero(salt.data(), size_t(salt.size()));
        return set;
    }
    void decrypt(uint64_t sector512, std::span<char> sector) const override
    {
        uint8_t iv[16];
        sectorIv(iv, sector512, iv_ == Iv::Plain);
        if (iv_ == Iv::Essiv)
            essiv_.encrypt(essiv_.context(), 16, iv, iv);
        auto *p = reinterpret_cast<uint8_t *>(sector.data());
        cbc_decrypt(data_.context(), data_.decrypt, 16, iv, sector.size(), p, p);
    }

private:
    AesKey data_;
    AesKey essiv_;
    Iv iv_;
};

} // namespace

Result<std::unique_ptr<SectorCipher>> SectorCipher::make(const QString &cipher, const QString &mode, const QByteArray &key, const QString &name)
{
    const QString full = mode.isEmpty() ? cipher : cipher + QLatin1Char('-') + mode;
    auto refuse = [&](const QString &why) {
        return Error::make(ErrorKind::Unsupported, name, QStringLiteral("LUKS cipher %1 %2").arg(full, why));
    };
    if (cipher != QLatin1String("aes"))
        return refuse(QStringLiteral("is not read by ArchiveScope (AES in XTS or CBC mode is)"));
    const auto keyError = [&] { return refuse(QStringLiteral("with a %1-bit key is not one AES allows").arg(key.size() * 8)); };
    if (mode == QLatin1String("xts-plain64") || mode == QLatin1String("xts-plain")) {
        auto xts = std::make_unique<XtsCipher>(mode == QLatin1String("xts-plain"));
        if (!xts->setKey(key))
            return keyError();
        return std::unique_ptr<SectorCipher>(std::move(xts));
    }
    const QString essivPrefix = QStringLiteral("cbc-essiv:");
    if (mode == QLatin1String("cbc-plain64") || mode == QLatin1String("cbc-plain") || mode.startsWith(essivPrefix)) {
        const bool essiv = mode.startsWith(essivPrefix);
        const QString hashName = essiv ? mode.mid(essivPrefix.size()) : QString();
        QCryptographicHash::Algorithm hash = QCryptographicHash::Sha256;
        if (essiv) {
            if (hashName == QLatin1String("sha256"))
                hash = QCryptographicHash::Sha256;
            else if (hashName == QLatin1String("sha1"))
                hash = QCryptographicHash::Sha1;
            else if (hashName == QLatin1String("sha512"))
                hash = QCryptographicHash::Sha512;
            else
                return refuse(QStringLiteral("(ESSIV with %1) is not read by ArchiveScope").arg(hashName));
            // The hash is the ESSIV cipher's key: it must be an AES key size (sha512 is not).
            if (QCryptographicHash::hashLength(hash) > 32)
                return refuse(QStringLiteral("(ESSIV with %1, longer than an AES key) is not valid").arg(hashName));
        }
        auto cbc = std::make_unique<CbcCipher>(essiv ? CbcCipher::Iv::Essiv : mode == QLatin1String("cbc-plain") ? CbcCipher::Iv::Plain
                                                                                                                 : CbcCipher::Iv::Plain64);
        if (!cbc->setKey(key, hash))
            return keyError();
        return std::unique_ptr<SectorCipher>(std::move(cbc));
    }
    return refuse(QStringLiteral("is not read by ArchiveScope (AES in XTS or CBC mode is)"));
}

} // namespace asc
