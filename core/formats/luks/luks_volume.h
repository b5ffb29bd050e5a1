// SPDX-License-Identifier: MIT
#pragma once
// A LUKS1 or LUKS2 volume's decrypted data, as a disk image is its virtual disk: transparent in
// SPECs (disk.raw!/p3 is what the volume holds, probed again: LVM, a filesystem, ...). It opens
// without a password, so `info` describes it; the volume key (luks_unlock.h) is opened at the
// first read, once: without a password, or with a wrong one, every read is that error. Reads
// decrypt whole sectors and hand out the part asked.

#include "luks_header.h"
#include "sector_cipher.h"

#include "formats/image/disk_image.h"

#include <atomic>
#include <mutex>
#include <optional>

namespace asc {

class LuksVolume final : public DiskImage {
public:
    static Result<std::shared_ptr<LuksVolume>> open(SourcePtr source);

    uint64_t size() const override { return header_.dataSize; }
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override;
    QString name() const override { return source_->name(); }
    QJsonObject info() const override { return header_.toJson(); }
    Result<std::vector<DiskExtent>> map(uint64_t start, uint64_t length) const override;
    QString formatName() const override { return QStringLiteral("luks"); }

private:
    LuksVolume(SourcePtr source, LuksHeader header);
    // The cipher with the volume's key, opened at the first call.
    Result<const SectorCipher *> cipher() const;

    SourcePtr source_;
    LuksHeader header_;
    mutable std::mutex unlocking_;
    mutable std::unique_ptr<SectorCipher> cipher_;
    mutable std::optional<Error> failed_;
    mutable std::atomic<const SectorCipher *> ready_{nullptr};
};

int probeLuks(std::span<const char> head);

} // namespace asc
