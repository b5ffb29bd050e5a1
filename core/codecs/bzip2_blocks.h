// SPDX-License-Identifier: MIT
#pragma once
// The bit-level side of bzip2: a stream is "BZh" and a level digit, then blocks, each starting
// with a 48-bit magic at any bit offset (not byte-aligned) and its CRC, then a 48-bit end
// marker, the stream's combined CRC and padding to a byte. Blocks decode independently, so one
// block can be cut out and handed to libbz2 as a stream of its own: our header, the block's
// bits, and an end marker whose combined CRC is the block's own CRC (for one block they are the
// same). libbz2 then checks the block as bzip2 -d would, and it fails unless the block ends
// exactly where it was cut.

#include <QString>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace asc::bzip2 {

constexpr uint64_t kBlockMagic = 0x314159265359; // pi
constexpr uint64_t kEndMagic = 0x177245385090; // sqrt(pi)
constexpr int kMagicBits = 48;
constexpr int kCrcBits = 32;
constexpr uint64_t kMagicAndCrcBits = kMagicBits + kCrcBits; // what starts a block or ends a stream

// `count` (at most 56) bits at bit `bit` of `bytes`, most significant first, as bzip2 writes
// them. The bytes must hold them.
uint64_t bitsAt(const uint8_t *bytes, uint64_t bit, unsigned count);

struct Magic {
    uint64_t bit; // where the 48 bits start, counted from bytes[0]
    bool end; // the end-of-stream marker, not a block
};

// The first block or end magic starting in [from, limit); only bit offsets whose 48 bits and
// the 32 after them lie inside `bytes` are looked at.
std::optional<Magic> findMagic(std::span<const uint8_t> bytes, uint64_t from, uint64_t limit);

struct DecodedBlock {
    std::vector<char> bytes;
    QString error; // empty when the block decoded and checked out
};

// The most a block of a level-`level` stream decodes to: its 100k x level bytes before the BWT
// are run-length coded, 5 bytes standing for up to 255 (about 46 MB for level 9).
constexpr size_t maxBlockOutput(int level)
{
    return size_t(52) * 100000 * size_t(level);
}

// Decodes the block whose bits are [bit, bit + length) of `bytes` (the block magic first) as a
// level-`level` stream of its own, whose expected CRC is the block's. `outputLimit` bounds what
// it may decode to (maxBlockOutput).
DecodedBlock decodeBlock(std::span<const uint8_t> bytes, uint64_t bit, uint64_t length, int level, size_t outputLimit);

} // namespace asc::bzip2
