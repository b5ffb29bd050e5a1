// SPDX-License-Identifier: MIT
// Our XFS reader over arbitrary bytes: open the volume, walk every folder, read each file's first
// bytes and each symlink's target. The input is the start of a volume: what its superblock says
// lies beyond reads as zeros (a real volume is 300 MB at least), so the reader is not stopped at
// its size check. Seeds are v4 (no CRCs, so mutations reach the structures) and v5.

#include "formats/xfs/xfs_container.h"
#include "image_fuzz_body.h"
#include "io/big_endian.h"

#include <cstring>

namespace {

class ZeroPadded final : public asc::ByteSource {
public:
    ZeroPadded(QByteArray bytes, uint64_t size)
        : bytes_(std::move(bytes)),
          size_(std::max<uint64_t>(size, uint64_t(bytes_.size())))
    {
    }
    uint64_t size() const override { return size_; }
    QString name() const override { return QStringLiteral("fuzz.xfs"); }
    asc::Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override
    {
        if (offset >= size_)
            return size_t(0);
        const size_t n = size_t(std::min<uint64_t>(buf.size(), size_ - offset));
        std::memset(buf.data(), 0, n);
        if (offset < uint64_t(bytes_.size()))
            std::memcpy(buf.data(), bytes_.constData() + offset, size_t(std::min<uint64_t>(n, uint64_t(bytes_.size()) - offset)));
        return n;
    }

private:
    QByteArray bytes_;
    uint64_t size_;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    uint64_t claimed = 0;
    if (size >= 16)
        claimed = std::min<uint64_t>(asc::be64(bytes.constData() + 8), uint64_t(1) << 28) * std::min<uint32_t>(asc::be32(bytes.constData() + 4), 65536);
    const asc::SourcePtr volume = std::make_shared<ZeroPadded>(std::move(bytes), std::min<uint64_t>(claimed, uint64_t(1) << 40));
    return asc::fuzz::exerciseContainer(asc::XfsContainer::open(volume));
}
