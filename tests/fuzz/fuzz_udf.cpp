// SPDX-License-Identifier: MIT
// Our UDF reader over arbitrary bytes: open (anchor, volume descriptors, partition maps, the
// metadata partition's file, the file set), walk every folder, read each file's first bytes and
// each symlink. The input is a volume's non-empty 512-byte blocks, each after its block number
// (4 bytes, little-endian): a UDF volume starts its structures at 128 KiB, which a flat input
// could not reach; what no record covers reads as zeros.

#include "formats/udf/udf_container.h"
#include "image_fuzz_body.h"
#include "io/little_endian.h"

#include <algorithm>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    constexpr size_t kBlock = 512, kRecord = 4 + kBlock;
    constexpr uint32_t kMaxBlocks = 1 << 13; // a 4 MiB volume at most
    uint32_t blocks = 0;
    for (size_t at = 0; at + kRecord <= size; at += kRecord)
        blocks = std::max(blocks, std::min(asc::le32(reinterpret_cast<const char *>(data + at)), kMaxBlocks - 1) + 1);
    QByteArray volume(qsizetype(blocks) * qsizetype(kBlock), '\0');
    for (size_t at = 0; at + kRecord <= size; at += kRecord) {
        const uint32_t block = std::min(asc::le32(reinterpret_cast<const char *>(data + at)), kMaxBlocks - 1);
        std::copy_n(data + at + 4, kBlock, volume.data() + qsizetype(block) * qsizetype(kBlock));
    }
    auto source = std::make_shared<asc::MemorySource>(std::move(volume), QStringLiteral("fuzz.udf"));
    return asc::fuzz::exerciseContainer(asc::UdfContainer::open(source));
}
