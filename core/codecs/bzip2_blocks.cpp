// SPDX-License-Identifier: MIT
#include "bzip2_blocks.h"

#include <algorithm>
#include <array>
#include <bzlib.h>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace asc::bzip2 {

uint64_t bitsAt(const uint8_t *bytes, uint64_t bit, unsigned count)
{
    const uint8_t *p = bytes + bit / 8;
    const unsigned skip = unsigned(bit % 8);
    const unsigned whole = (skip + count + 7) / 8; // at most 8 bytes for count <= 56
    uint64_t w = 0;
    for (unsigned i = 0; i < whole; ++i)
        w = (w << 8) | p[i];
    w >>= whole * 8 - skip - count;
    return w & ((uint64_t(1) << count) - 1);
}

namespace {

// For each byte value, which (shift, magic) pairs have that value as their second byte: the
// byte after the one a magic starts in is wholly inside the magic whatever the shift, so one
// table look-up per byte rules out nearly every position.
struct SecondByteTable {
    std::array<uint16_t, 256> pairs{}; // bit 2*shift: block magic, bit 2*shift+1: end magic
    SecondByteTable()
    {
        for (unsigned shift = 0; shift < 8; ++shift) {
            pairs[(kBlockMagic >> (32 + shift)) & 0xff] |= uint16_t(1u << (2 * shift));
            pairs[(kEndMagic >> (32 + shift)) & 0xff] |= uint16_t(1u << (2 * shift + 1));
        }
    }
};

const SecondByteTable kTable;

} // namespace

std::optional<Magic> findMagic(std::span<const uint8_t> bytes, uint64_t from, uint64_t limit)
{
    const uint64_t size = bytes.size();
    // A magic and the CRC after it are 80 bits: up to byte i + 9 when byte-aligned, i + 10 if not.
    if (size < kMagicAndCrcBits / 8)
        return std::nullopt;
    const uint64_t lastByte = std::min<uint64_t>(size - kMagicAndCrcBits / 8, limit / 8);
    const uint8_t *b = bytes.data();
    for (uint64_t i = from / 8; i <= lastByte; ++i) {
        const uint16_t pairs = kTable.pairs[b[i + 1]];
        if (!pairs)
            continue;
        for (unsigned shift = 0; shift < 8; ++shift) {
            const unsigned two = (pairs >> (2 * shift)) & 3u;
            if (!two)
                continue;
            const uint64_t at = i * 8 + shift;
            if (at < from || at >= limit || at + kMagicAndCrcBits > size * 8)
                continue;
            const uint64_t value = bitsAt(b, at, kMagicBits);
            if ((two & 1u) && value == kBlockMagic)
                return Magic{at, false};
            if ((two & 2u) && value == kEndMagic)
                return Magic{at, true};
        }
    }
    return std::nullopt;
}

// Appends bits to a byte buffer, most significant first.
class BitWriter {
public:
    explicit BitWriter(std::vector<uint8_t> &out, uint64_t bit)
        : out_(out),
          bit_(bit)
    {
    }
    void put(uint64_t value, unsigned count)
    {
        for (unsigned i = count; i-- > 0;) {
            const uint64_t byte = bit_ / 8;
            if (byte >= out_.size())
                out_.push_back(0);
            if ((value >> i) & 1u)
                out_[byte] |= uint8_t(0x80u >> (bit_ % 8));
            ++bit_;
        }
    }

private:
    std::vector<uint8_t> &out_;
    uint64_t bit_;
};

static QString bzText(int rc)
{
    switch (rc) {
    case BZ_DATA_ERROR: return QStringLiteral("corrupt data (the block's CRC or its structure is wrong)");
    case BZ_DATA_ERROR_MAGIC: return QStringLiteral("not a bzip2 block");
    case BZ_MEM_ERROR: return QStringLiteral("out of memory");
    case BZ_PARAM_ERROR: return QStringLiteral("bad parameters");
    default: return QStringLiteral("libbz2 error %1").arg(rc);
    }
}

namespace {

// libbz2 allocates its state and a block's tables (4 bytes per symbol: 3.6 MB at level 9) for
// every stream, and each block is decoded as a stream of its own: a thread keeps what the last
// block freed for the next one of the same size instead of faulting in fresh pages each time.
class ReusedAllocations {
public:
    ~ReusedAllocations()
    {
        for (const Kept &kept : kept_)
            std::free(kept.memory);
    }
    void *take(size_t size)
    {
        for (Kept &kept : kept_) {
            if (kept.memory && kept.size == size)
                return std::exchange(kept.memory, nullptr);
        }
        return std::malloc(size);
    }
    void give(void *memory, size_t size)
    {
        for (Kept &kept : kept_) {
            if (!kept.memory) {
                kept = Kept{memory, size};
                return;
            }
        }
        std::free(memory);
    }

private:
    struct Kept {
        void *memory = nullptr;
        size_t size = 0;
    };
    Kept kept_[4]; // libbz2 holds at most three at once (state, tt or ll16 + ll4)
};

thread_local ReusedAllocations reused;

// The size of each allocation, kept in front of it for bzfree.
constexpr size_t kHeader = alignof(std::max_align_t);

void *bzAlloc(void *, int items, int size)
{
    const size_t bytes = size_t(items) * size_t(size);
    auto *memory = static_cast<char *>(reused.take(bytes + kHeader));
    if (!memory)
        return nullptr;
    std::memcpy(memory, &bytes, sizeof bytes);
    return memory + kHeader;
}

void bzFree(void *, void *pointer)
{
    if (!pointer)
        return;
    char *memory = static_cast<char *>(pointer) - kHeader;
    size_t bytes = 0;
    std::memcpy(&bytes, memory, sizeof bytes);
    reused.give(memory, bytes + kHeader);
}

// Where a block's output starts: about what its compressed size suggests, so small (and
// hostile) blocks do not each zero a megabyte; it doubles as needed.
size_t firstOutputSize(uint64_t blockBytes, size_t outputLimit)
{
    const uint64_t guess = std::clamp<uint64_t>(blockBytes * 8, 64 << 10, 1 << 20);
    return size_t(std::min<uint64_t>(guess, outputLimit));
}

} // namespace

DecodedBlock decodeBlock(std::span<const uint8_t> bytes, uint64_t bit, uint64_t length, int level, size_t outputLimit)
{
    DecodedBlock result;
    // Our stream: "BZh" and the level, the block's bits moved to start right after them, then
    // the end marker with the block's CRC as the combined CRC.
    const uint64_t blockBytes = (length + 7) / 8;
    std::vector<uint8_t> stream(4 + blockBytes, 0);
    stream[0] = 'B';
    stream[1] = 'Z';
    stream[2] = 'h';
    stream[3] = uint8_t('0' + level);
    const uint8_t *from = bytes.data() + bit / 8;
    const unsigned shift = unsigned(bit % 8);
    const uint64_t available = bytes.size() - bit / 8;
    for (uint64_t i = 0; i < blockBytes; ++i) {
        const uint8_t high = uint8_t(from[i] << shift);
        const uint8_t low = shift && i + 1 < available ? uint8_t(from[i + 1] >> (8 - shift)) : 0;
        stream[4 + i] = high | low;
    }
    if (length % 8) // bits past the block belong to what follows it: cleared
        stream.back() &= uint8_t(0xff00u >> (length % 8));
    const uint32_t crc = uint32_t(bitsAt(bytes.data(), bit + kMagicBits, kCrcBits));
    BitWriter tail(stream, 32 + length);
    tail.put(kEndMagic, kMagicBits);
    tail.put(crc, kCrcBits);

    bz_stream z{};
    z.bzalloc = bzAlloc;
    z.bzfree = bzFree;
    if (const int rc = BZ2_bzDecompressInit(&z, 0, 0); rc != BZ_OK) {
        result.error = bzText(rc);
        return result;
    }
    z.next_in = reinterpret_cast<char *>(stream.data());
    z.avail_in = unsigned(stream.size());
    size_t produced = 0;
    result.bytes.resize(firstOutputSize(blockBytes, outputLimit));
    for (;;) {
        if (produced == result.bytes.size()) {
            if (result.bytes.size() >= outputLimit) {
                result.error = QStringLiteral("the block decodes to more than %1 bytes, more than bzip2 allows").arg(outputLimit);
                break;
            }
            result.bytes.resize(std::min(result.bytes.size() * 2, outputLimit));
        }
        z.next_out = result.bytes.data() + produced;
        z.avail_out = unsigned(result.bytes.size() - produced);
        const unsigned inBefore = z.avail_in;
        const int rc = BZ2_bzDecompress(&z);
        const size_t wrote = result.bytes.size() - produced - z.avail_out;
        produced += wrote;
        if (rc == BZ_STREAM_END) {
            if (z.avail_in != 0)
                result.error = QStringLiteral("the block ends before the next block starts");
            break;
        }
        if (rc != BZ_OK) {
            result.error = bzText(rc);
            break;
        }
        if (wrote == 0 && z.avail_in == inBefore) {
            result.error = QStringLiteral("truncated: the block does not end where the next one starts");
            break;
        }
    }
    BZ2_bzDecompressEnd(&z);
    result.bytes.resize(produced);
    if (!result.error.isEmpty())
        result.bytes.clear();
    return result;
}

} // namespace asc::bzip2
