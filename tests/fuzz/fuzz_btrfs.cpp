// SPDX-License-Identifier: MIT
// Our btrfs reader over arbitrary bytes: open, walk every folder, read each file's first bytes and
// each symlink. A btrfs volume is mostly empty space, so the input is its non-empty 4 KiB blocks:
// records of a little-endian block number and 4,096 bytes; every other block reads as zeros. Fuzz
// builds pass every checksum (io/fuzzing.h), so mutations reach the trees.

#include "formats/btrfs/btrfs_container.h"
#include "image_fuzz_body.h"
#include "io/little_endian.h"

#include <cstring>
#include <map>

namespace {

constexpr size_t kBlock = 4096;

class SparseBlocks final : public asc::ByteSource {
public:
    explicit SparseBlocks(const uint8_t *data, size_t size)
    {
        for (size_t at = 0; at + 4 + kBlock <= size; at += 4 + kBlock) {
            const uint32_t index = asc::le32(reinterpret_cast<const char *>(data + at)) % (1u << 20); // at most 4 GiB
            blocks_[index] = QByteArray(reinterpret_cast<const char *>(data + at + 4), qsizetype(kBlock));
            size_ = std::max<uint64_t>(size_, (uint64_t(index) + 1) * kBlock);
        }
        size_ = std::max<uint64_t>(size_, 1u << 20);
    }
    uint64_t size() const override { return size_; }
    QString name() const override { return QStringLiteral("fuzz.btrfs"); }
    asc::Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override
    {
        if (offset >= size_)
            return size_t(0);
        const size_t n = size_t(std::min<uint64_t>(buf.size(), size_ - offset));
        for (size_t done = 0; done < n;) {
            const uint64_t at = offset + done;
            const size_t piece = size_t(std::min<uint64_t>(n - done, kBlock - at % kBlock));
            auto it = blocks_.find(uint32_t(at / kBlock));
            if (it == blocks_.end())
                std::memset(buf.data() + done, 0, piece);
            else
                std::memcpy(buf.data() + done, it->second.constData() + at % kBlock, piece);
            done += piece;
        }
        return n;
    }

private:
    std::map<uint32_t, QByteArray> blocks_;
    uint64_t size_ = 0;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const asc::SourcePtr volume = std::make_shared<SparseBlocks>(data, size);
    return asc::fuzz::exerciseContainer(asc::BtrfsContainer::open(volume));
}
