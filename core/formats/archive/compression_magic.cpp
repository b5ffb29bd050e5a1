// SPDX-License-Identifier: MIT
#include "compression_magic.h"

#include "codecs/filter_chain.h"

#include <cstdint>

namespace asc {

static uint32_t le32(QByteArrayView b, qsizetype at)
{
    return uint32_t(uint8_t(b[at])) | uint32_t(uint8_t(b[at + 1])) << 8 | uint32_t(uint8_t(b[at + 2])) << 16 | uint32_t(uint8_t(b[at + 3])) << 24;
}

// lzma_alone has no magic: a properties byte, a dictionary size and a size, checked as
// libarchive's bidder and xz do (the usual properties, a dictionary of 2^n or 2^n + 2^(n-1),
// a size that is unknown or plausible).
static bool looksLikeLzmaAlone(QByteArrayView head)
{
    if (head.size() < 13 || uint8_t(head[0]) != 0x5d)
        return false;
    const uint32_t dict = le32(head, 1);
    bool dictOk = false;
    for (int n = 12; n <= 30 && !dictOk; ++n)
        dictOk = dict == (1u << n) || dict == (1u << n) + (1u << (n - 1));
    if (!dictOk && dict != 0xffffffffu)
        return false;
    const uint64_t size = uint64_t(le32(head, 5)) | uint64_t(le32(head, 9)) << 32;
    return size == ~uint64_t(0) || size < (uint64_t(1) << 40);
}

bool hasCompressionMagic(QByteArrayView head)
{
    if (recogniseCompression(head) != Compression::None)
        return true;
    if (head.startsWith("LZIP"))
        return true;
    // A skippable frame (zstd's and lz4's magic; pzstd starts with one).
    if (startsSkippableFrame(head))
        return true;
    if (head.size() >= 3 && uint8_t(head[0]) == 0x1f && uint8_t(head[1]) == 0x9d)
        return true; // compress (.Z)
    if (head.startsWith(QByteArrayView("\x89LZO\x00\r\n\x1a\n", 9)))
        return true;
    return looksLikeLzmaAlone(head);
}

} // namespace asc
