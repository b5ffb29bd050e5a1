// SPDX-License-Identifier: MIT
#include "luks_volume.h"

#include "luks_unlock.h"

#include <cstring>

namespace asc {

int probeLuks(std::span<const char> head)
{
    return looksLikeLuks(head) ? 95 : 0;
}

LuksVolume::LuksVolume(SourcePtr source, LuksHeader header)
    : source_(std::move(source)),
      header_(std::move(header))
{
}

Result<std::shared_ptr<LuksVolume>> LuksVolume::open(SourcePtr source)
{
    auto header = readLuksHeader(*source);
    if (!header)
        return std::move(header).error();
    if (!header->integrity.isEmpty())
        return Error::make(ErrorKind::Unsupported, source->name(), QStringLiteral("LUKS2 volume with authenticated encryption (integrity %1) is not read by ArchiveScope").arg(header->integrity));
    // A cipher we cannot read is said before a password is asked for.
    if (auto supported = SectorCipher::make(header->cipher, header->mode, QByteArray(header->keyBytes, '\0'), source->name()); !supported)
        return std::move(supported).error();
    return std::shared_ptr<LuksVolume>(new LuksVolume(std::move(source), std::move(header).value()));
}

Result<const SectorCipher *> LuksVolume::cipher() const
{
    if (const SectorCipher *c = ready_.load(std::memory_order_acquire))
        return c;
    std::lock_guard lock(unlocking_);
    if (failed_)
        return *failed_;
    if (!cipher_) {
        auto key = luksVolumeKey(header_, *source_);
        if (!key) {
            // Kept: a probe reads many times, and each would otherwise pay the PBKDF again.
            failed_ = key.error();
            return std::move(key).error();
        }
        auto made = SectorCipher::make(header_.cipher, header_.mode, *key, source_->name());
        ::explicit_bzero(key->data(), size_t(key->size()));
        if (!made) {
            failed_ = made.error();
            return std::move(made).error();
        }
        cipher_ = std::move(made).value();
        ready_.store(cipher_.get(), std::memory_order_release);
    }
    return cipher_.get();
}

Result<size_t> LuksVolume::readAt(uint64_t offset, std::span<char> buf) const
{
    if (offset >= size())
        return size_t(0);
    auto unlocked = cipher();
    if (!unlocked)
        return std::move(unlocked).error();
    const SectorCipher &cipher = **unlocked;
    const size_t n = size_t(std::min<uint64_t>(buf.size(), size() - offset));
    const size_t sector = size_t(header_.sectorSize);
    size_t done = 0;
    while (done < n) {
        const uint64_t at = offset + done;
        const uint64_t start = at - at % sector;
        const size_t within = size_t(at - start);
        if (within == 0 && n - done >= sector) {
            // Whole sectors: read and decrypted in the caller's buffer.
            const size_t whole = std::min<size_t>((n - done) / sector * sector, size_t(16) << 20);
            std::span<char> part = buf.subspan(done, whole);
            if (auto read = source_->readExact(header_.dataOffset + at, part); !read)
                return std::move(read).error();
            for (size_t s = 0; s < whole; s += sector)
                cipher.decrypt((at + s) / 512, part.subspan(s, sector));
            done += whole;
            continue;
        }
        // A sector the read starts or ends inside of.
        char one[4096];
        std::span<char> whole(one, sector);
        if (auto read = source_->readExact(header_.dataOffset + start, whole); !read)
            return std::move(read).error();
        cipher.decrypt(start / 512, whole);
        const size_t take = std::min(sector - within, n - done);
        std::memcpy(buf.data() + done, one + within, take);
        ::explicit_bzero(one, sizeof one);
        done += take;
    }
    return n;
}

Result<std::vector<DiskExtent>> LuksVolume::map(uint64_t start, uint64_t length) const
{
    std::vector<DiskExtent> extents;
    if (start >= size())
        return extents;
    DiskExtent e;
    e.start = start;
    e.length = std::min(length, size() - start);
    e.present = true;
    e.data = true;
    e.offset = header_.dataOffset + start; // encrypted: where its ciphertext lies in the volume
    extents.push_back(e);
    return extents;
}

} // namespace asc
