// SPDX-License-Identifier: MIT
// LUKS1/LUKS2 headers over arbitrary bytes: the binary header, the LUKS2 JSON (segments, key
// slots, requirements), sizes and offsets, then reads of the decrypted volume at its start,
// middle and end. Key slots are libcryptsetup's (in its own locked-down helper, not fuzzed here):
// the key comes from a stand-in of the header's key size.

#include "formats/archive/archive_passwords.h"
#include "formats/luks/luks_unlock.h"
#include "formats/luks/luks_volume.h"
#include "image_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const bool once = [] {
        asc::setDefaultArchivePasswords({QByteArrayLiteral("fuzz")});
        asc::setVolumeUnlocker([](const QByteArray &metadata, const QList<QByteArray> &, const QString &) -> asc::Result<QByteArray> {
            // 64 bytes (AES-256-XTS) or 32 (AES-128-XTS, AES-256-CBC), chosen by the input.
            return QByteArray(metadata.size() % 2 ? 32 : 64, 'k');
        });
        return true;
    }();
    (void)once;
    const asc::SourcePtr input = asc::fuzz::inputSource(data, size, QStringLiteral("fuzz.luks"));
    auto volume = asc::LuksVolume::open(input);
    if (!volume)
        return 0;
    (void)(*volume)->info();
    (void)(*volume)->map(0, (*volume)->size());
    std::vector<char> buffer(9001);
    if (const uint64_t n = (*volume)->size())
        for (uint64_t at : {uint64_t(0), uint64_t(1), n / 2, n - 1})
            (void)(*volume)->readAt(at, buffer);
    return 0;
}
