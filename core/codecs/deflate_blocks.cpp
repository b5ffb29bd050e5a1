// SPDX-License-Identifier: MIT
#include "deflate_blocks.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

namespace asc::deflate {

namespace {

// The bits of `in` from a position, least significant first; past the end they read as zero and
// the position shows the overrun.
class Bits {
public:
    Bits(std::span<const uint8_t> in, uint64_t bit)
        : p_(in.data()),
          size_(in.size()),
          bit_(bit)
    {
    }
    // At least 56 bits from the position.
    uint64_t peek() const
    {
        const uint64_t byte = bit_ >> 3;
        uint64_t w = 0;
        if (byte + 8 <= size_) {
            std::memcpy(&w, p_ + byte, 8);
            if constexpr (std::endian::native == std::endian::big)
                w = __builtin_bswap64(w);
        } else if (byte < size_) {
            for (uint64_t i = 0; i < 8 && byte + i < size_; ++i)
                w |= uint64_t(p_[byte + i]) << (8 * i);
        }
        return w >> (bit_ & 7);
    }
    uint32_t take(unsigned n)
    {
        const uint32_t v = uint32_t(peek() & ((uint64_t(1) << n) - 1));
        bit_ += n;
        return v;
    }
    void skip(uint64_t n) { bit_ += n; }
    uint64_t bit() const { return bit_; }
    void alignToByte() { bit_ = (bit_ + 7) & ~uint64_t(7); }
    bool overrun() const { return bit_ > size_ * 8; }
    const uint8_t *bytes() const { return p_; }
    uint64_t size() const { return size_; }

private:
    const uint8_t *p_;
    uint64_t size_;
    uint64_t bit_;
};

// A canonical prefix code as one look-up table indexed by the next `bits` input bits: each entry
// is symbol << 4 | code length, 0 where no code starts with those bits.
struct Code {
    std::vector<uint16_t> entries;
    unsigned bits = 0;
    uint64_t mask = 0;
};

enum class CodeKind { CodeLengths,
                      Literals,
                      Distances };

// Builds `code` from `lengths`; an error text when they do not form a code zlib would accept
// (over-subscribed; incomplete, except a lone code of length 1, or no codes at all for distances).
QString build(Code *code, const uint8_t *lengths, unsigned count, CodeKind kind)
{
    std::array<unsigned, 16> perLength{};
    for (unsigned i = 0; i < count; ++i)
        ++perLength[lengths[i]];
    unsigned longest = 15;
    while (longest > 0 && perLength[longest] == 0)
        --longest;
    if (longest == 0) {
        if (kind != CodeKind::Distances)
            return QStringLiteral("a Huffman code without symbols");
        if (code) { // literals only: any distance is invalid
            code->bits = 1;
            code->mask = 1;
            code->entries.assign(2, 0);
        }
        return {};
    }
    int left = 1;
    for (unsigned len = 1; len <= 15; ++len) {
        left = left * 2 - int(perLength[len]);
        if (left < 0)
            return QStringLiteral("an over-subscribed Huffman code");
    }
    if (left > 0 && (kind == CodeKind::CodeLengths || longest != 1))
        return QStringLiteral("an incomplete Huffman code");
    if (!code)
        return {}; // only checked
    std::array<unsigned, 16> next{};
    // The canonical code of each length starts after all shorter ones.
    perLength[0] = 0;
    unsigned c = 0;
    for (unsigned len = 1; len <= 15; ++len) {
        next[len] = c;
        c = (c + perLength[len]) << 1;
    }
    code->bits = longest;
    code->mask = (uint64_t(1) << longest) - 1;
    code->entries.assign(size_t(1) << longest, 0);
    for (unsigned symbol = 0; symbol < count; ++symbol) {
        const unsigned len = lengths[symbol];
        if (!len)
            continue;
        const unsigned canonical = next[len]++;
        // Deflate sends codes most significant bit first into a least-significant-first stream.
        unsigned reversed = 0;
        for (unsigned b = 0; b < len; ++b)
            reversed |= ((canonical >> b) & 1u) << (len - 1 - b);
        const uint16_t entry = uint16_t(symbol << 4 | len);
        for (size_t at = reversed; at < code->entries.size(); at += size_t(1) << len)
            code->entries[at] = entry;
    }
    return {};
}

constexpr std::array<uint16_t, 29> kLengthBase = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                                  35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<uint8_t, 29> kLengthExtra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                                  3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<uint16_t, 30> kDistanceBase = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129,
                                                    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
                                                    6145, 8193, 12289, 16385, 24577};
constexpr std::array<uint8_t, 30> kDistanceExtra = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6,
                                                    6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
constexpr std::array<uint8_t, 19> kCodeLengthOrder = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

struct BlockCodes {
    Code literals;
    Code distances;
};

const BlockCodes &fixedCodes()
{
    static const BlockCodes codes = [] {
        BlockCodes c;
        std::array<uint8_t, 288> lit{};
        std::fill(lit.begin(), lit.begin() + 144, 8);
        std::fill(lit.begin() + 144, lit.begin() + 256, 9);
        std::fill(lit.begin() + 256, lit.begin() + 280, 7);
        std::fill(lit.begin() + 280, lit.end(), 8);
        build(&c.literals, lit.data(), 288, CodeKind::Literals);
        // All 32 five-bit codes, as RFC 1951 has them: 30 and 31 never occur and are refused.
        std::array<uint8_t, 32> dist{};
        dist.fill(5);
        build(&c.distances, dist.data(), 32, CodeKind::Distances);
        return c;
    }();
    return codes;
}

// One symbol of `code`; 0xffff when no code matches.
inline unsigned symbolOf(const Code &code, uint64_t bits, unsigned &length)
{
    const uint16_t e = code.entries[bits & code.mask];
    length = e & 15u;
    return length ? unsigned(e >> 4) : 0xffffu;
}

// Reads a dynamic block's header (after its three type bits) into `codes`; with `codes` null,
// only checks it.
QString readDynamicHeader(Bits &in, BlockCodes *codes, Code &scratch)
{
    const unsigned literals = in.take(5) + 257;
    const unsigned distances = in.take(5) + 1;
    const unsigned lengthCodes = in.take(4) + 4;
    if (literals > 286 || distances > 30)
        return QStringLiteral("a dynamic block header with too many length or distance symbols");
    std::array<uint8_t, 19> clens{};
    for (unsigned i = 0; i < lengthCodes; ++i)
        clens[kCodeLengthOrder[i]] = uint8_t(in.take(3));
    if (auto e = build(&scratch, clens.data(), 19, CodeKind::CodeLengths); !e.isEmpty())
        return QStringLiteral("a dynamic block header with %1 for its code lengths").arg(e);
    std::array<uint8_t, 286 + 30> lengths{};
    const unsigned total = literals + distances;
    for (unsigned n = 0; n < total;) {
        unsigned len = 0;
        const unsigned symbol = symbolOf(scratch, in.peek(), len);
        if (symbol == 0xffffu)
            return QStringLiteral("a dynamic block header with an invalid code length code");
        in.skip(len);
        if (symbol < 16) {
            lengths[n++] = uint8_t(symbol);
            continue;
        }
        unsigned repeat = 0;
        uint8_t value = 0;
        if (symbol == 16) {
            if (n == 0)
                return QStringLiteral("a dynamic block header repeating a length before the first");
            value = lengths[n - 1];
            repeat = 3 + in.take(2);
        } else if (symbol == 17) {
            repeat = 3 + in.take(3);
        } else {
            repeat = 11 + in.take(7);
        }
        if (n + repeat > total)
            return QStringLiteral("a dynamic block header whose code lengths run past their count");
        std::fill_n(lengths.begin() + n, repeat, value);
        n += repeat;
    }
    if (lengths[256] == 0)
        return QStringLiteral("a dynamic block without an end-of-block code");
    if (auto e = build(codes ? &codes->literals : nullptr, lengths.data(), literals, CodeKind::Literals); !e.isEmpty())
        return QStringLiteral("a dynamic block with %1 for literals and lengths").arg(e);
    if (auto e = build(codes ? &codes->distances : nullptr, lengths.data() + literals, distances, CodeKind::Distances); !e.isEmpty())
        return QStringLiteral("a dynamic block with %1 for distances").arg(e);
    return {};
}

class Decoder {
public:
    Decoder(std::span<const uint8_t> in, uint64_t startBit, const Limits &limits)
        : in_(in, startBit),
          limits_(limits)
    {
    }

    // Decodes blocks until a limit; with `oneBlock`, stops after the first block ends.
    Decoded run(bool oneBlock)
    {
        Decoded d;
        out_.resize(std::max(out_.size(), std::min<size_t>(limits_.maxSymbols + 258, size_t(1) << 16)));
        for (;;) {
            const uint64_t blockBit = in_.bit();
            const bool final = in_.take(1);
            const unsigned type = in_.take(2);
            QString error;
            if (type == 0)
                error = stored();
            else if (type == 1)
                error = coded(fixedCodes());
            else if (type == 2) {
                error = readDynamicHeader(in_, &dynamic_, scratch_);
                if (error.isEmpty())
                    error = coded(dynamic_);
            } else {
                error = QStringLiteral("a block of the reserved type 3");
            }
            if (error.isEmpty() && in_.overrun())
                error = QStringLiteral("the input ends inside a block");
            if (!error.isEmpty()) {
                d.error = QStringLiteral("%1 (the block starting at bit %2)").arg(error).arg(blockBit);
                d.errorBit = blockBit;
                d.stop = Stop::Failed;
                d.ranOut = in_.overrun();
                break;
            }
            d.endBit = in_.bit();
            if (final) {
                d.stop = Stop::FinalBlock;
                break;
            }
            if (d.endBit == limits_.stopBit) {
                d.stop = Stop::AtStopBit;
                break;
            }
            if (d.endBit > limits_.stopBit) {
                d.error = QStringLiteral("no block ends at bit %1: the one from bit %2 ends at bit %3").arg(limits_.stopBit).arg(blockBit).arg(d.endBit);
                d.errorBit = blockBit;
                d.stop = Stop::Failed;
                break;
            }
            if (oneBlock || (limits_.stopWhenClean && windowIsKnown())) {
                d.stop = Stop::Clean;
                break;
            }
        }
        out_.resize(n_);
        d.symbols = std::move(out_);
        return d;
    }

    void reuse(std::vector<uint16_t> storage) { out_ = std::move(storage); }

private:
    bool windowIsKnown() const
    {
        if (n_ < kWindow)
            return false;
        uint16_t high = 0;
        for (size_t i = n_ - kWindow; i < n_; ++i)
            high |= out_[i];
        return high < 256;
    }

    // Room for `more` symbols, within the limit.
    bool room(size_t more)
    {
        if (n_ + more <= out_.size())
            return true;
        if (n_ + more > limits_.maxSymbols)
            return false;
        out_.resize(std::min(std::max(out_.size() * 2, n_ + more), limits_.maxSymbols + 258));
        return true;
    }

    QString stored()
    {
        in_.alignToByte();
        const unsigned len = in_.take(16);
        const unsigned nlen = in_.take(16);
        if (len != (~nlen & 0xffffu))
            return QStringLiteral("a stored block whose length and its complement disagree");
        if (in_.bit() / 8 + len > in_.size()) {
            in_.skip(uint64_t(len) * 8);
            return QStringLiteral("the input ends inside a stored block");
        }
        if (!room(len))
            return QStringLiteral("more than %1 symbols").arg(limits_.maxSymbols);
        const uint8_t *from = in_.bytes() + in_.bit() / 8;
        for (unsigned i = 0; i < len; ++i)
            out_[n_ + i] = from[i];
        n_ += len;
        in_.skip(uint64_t(len) * 8);
        return {};
    }

    QString coded(const BlockCodes &codes)
    {
        const uint64_t endBit = in_.size() * 8;
        const uint16_t *literals = codes.literals.entries.data();
        const uint64_t literalMask = codes.literals.mask;
        const uint16_t *distances = codes.distances.entries.data();
        const uint64_t distanceMask = codes.distances.mask;
        for (;;) {
            if (in_.bit() > endBit)
                return QStringLiteral("the input ends inside a block");
            if (n_ + 3 * 258 > out_.size() && !room(3 * 258))
                return QStringLiteral("more than %1 symbols").arg(limits_.maxSymbols);
            uint64_t w = in_.peek();
            uint16_t e = literals[w & literalMask];
            unsigned used = e & 15u;
            unsigned symbol = e >> 4;
            if (used && symbol < 256) {
                // Up to three literals from one load (codes are at most 15 bits of the 56).
                uint16_t *o = out_.data() + n_;
                o[0] = uint16_t(symbol);
                unsigned taken = used, count = 1;
                for (; count < 3; ++count) {
                    e = literals[(w >> taken) & literalMask];
                    if (!(e & 15u) || (e >> 4) >= 256)
                        break;
                    o[count] = uint16_t(e >> 4);
                    taken += e & 15u;
                }
                n_ += count;
                in_.skip(taken);
                continue;
            }
            if (!used)
                return QStringLiteral("an invalid literal/length code");
            if (symbol == 256) {
                in_.skip(used);
                return {};
            }
            if (symbol > 285)
                return QStringLiteral("an invalid literal/length code");
            w >>= used;
            const unsigned li = symbol - 257;
            const unsigned length = kLengthBase[li] + unsigned(w & ((1u << kLengthExtra[li]) - 1));
            w >>= kLengthExtra[li];
            used += kLengthExtra[li];
            const uint16_t de = distances[w & distanceMask];
            const unsigned dlen = de & 15u;
            const unsigned ds = de >> 4;
            if (!dlen || ds >= 30)
                return QStringLiteral("an invalid distance code");
            w >>= dlen;
            used += dlen;
            const size_t distance = kDistanceBase[ds] + size_t(w & ((1u << kDistanceExtra[ds]) - 1));
            used += kDistanceExtra[ds];
            in_.skip(used);
            if (distance > n_ + kWindow)
                return QStringLiteral("a distance of %1 back, more than 32 KiB before the start").arg(distance);
            copy(distance, length);
        }
    }

    void copy(size_t distance, unsigned length)
    {
        uint16_t *o = out_.data() + n_;
        unsigned i = 0;
        if (distance > n_) { // starts in the unknown window
            const size_t back = distance - n_;
            const unsigned fromWindow = unsigned(std::min<size_t>(length, back));
            for (; i < fromWindow; ++i)
                o[i] = uint16_t(kMarker + (kWindow - back + i));
        }
        const uint16_t *src = o - distance;
        if (distance >= length) { // no overlap
            std::memcpy(o + i, src + i, (length - i) * sizeof(uint16_t));
        } else {
            for (; i < length; ++i)
                o[i] = src[i];
        }
        n_ += length;
    }

    Bits in_;
    Limits limits_;
    std::vector<uint16_t> out_;
    size_t n_ = 0;
    BlockCodes dynamic_;
    Code scratch_;
};

// The first 13 bits of a non-final dynamic block's header: BFINAL 0, BTYPE 2, then at most 286
// literal/length and 30 distance codes. One bit per 13-bit value.
struct HeaderStarts {
    std::array<uint64_t, 8192 / 64> valid{};
    HeaderStarts()
    {
        for (unsigned v = 0; v < 8192; ++v)
            if ((v & 7) == 4 && ((v >> 3) & 31) <= 29 && ((v >> 8) & 31) <= 29)
                valid[v / 64] |= uint64_t(1) << (v % 64);
    }
    bool operator()(uint64_t bits) const
    {
        const unsigned v = unsigned(bits & 8191);
        return (valid[v / 64] >> (v % 64)) & 1;
    }
};

const HeaderStarts kHeaderStarts;

// The cheap part of a dynamic header check (after its first 13 bits): a complete code for the
// code lengths. Nearly every bit offset fails here or before.
bool completeCodeLengthCode(const Bits &at)
{
    const uint64_t w = at.peek();
    const unsigned lengthCodes = unsigned((w >> 13) & 15) + 4;
    Bits lengths = at;
    lengths.skip(17);
    const uint64_t l = lengths.peek();
    int left = 128; // Kraft sum in units of 2^-7: a complete code uses all of it
    bool any = false;
    for (unsigned i = 0; i < lengthCodes; ++i) {
        const unsigned len = unsigned((l >> (3 * i)) & 7);
        if (len) {
            left -= 128 >> len;
            any = true;
        }
    }
    return any && left == 0;
}

// If byte `at` of `in` lies in the data of a stored block whose header is among the 64 KiB
// before it (`before`: the bytes before in[0]), where that data ends. A stored header is its
// 3 type bits and zero padding, then LEN and its complement, byte-aligned.
std::optional<uint64_t> storedDataEnd(std::span<const uint8_t> before, std::span<const uint8_t> in, uint64_t at)
{
    constexpr int64_t kReach = 65535 + 4;
    auto byte = [&](int64_t i) { return i >= 0 ? in[size_t(i)] : before[before.size() - size_t(-i)]; };
    const int64_t here = int64_t(at);
    const int64_t lowest = std::max(here - kReach, 1 - int64_t(before.size()));
    for (int64_t j = here - 1; j >= lowest; --j) {
        if (j + 4 > int64_t(in.size()))
            continue;
        const unsigned len = byte(j) | unsigned(byte(j + 1)) << 8;
        const unsigned nlen = byte(j + 2) | unsigned(byte(j + 3)) << 8;
        if (len == (~nlen & 0xffffu) && j + 4 + int64_t(len) > here && byte(j - 1) < 64)
            return uint64_t(j + 4 + int64_t(len));
    }
    return std::nullopt;
}

} // namespace

Decoded decode(std::span<const uint8_t> in, uint64_t startBit, const Limits &limits, std::vector<uint16_t> storage)
{
    Decoder decoder(in, startBit, limits);
    decoder.reuse(std::move(storage));
    return decoder.run(false);
}

std::optional<uint64_t> findBlock(std::span<const uint8_t> before, std::span<const uint8_t> in, uint64_t fromBit, uint64_t toBit, bool decodeFirst)
{
    toBit = std::min<uint64_t>(toBit, in.size() * 8);
    Limits trial;
    trial.maxSymbols = size_t(4) << 20;
    Code scratch;
    auto isStoredHeaderAt = [&](uint64_t j) -> std::optional<uint64_t> { // LEN, NLEN at byte j
        if (j == 0 || j + 4 > in.size())
            return std::nullopt;
        const unsigned len = in[j] | unsigned(in[j + 1]) << 8;
        const unsigned nlen = in[j + 2] | unsigned(in[j + 3]) << 8;
        if (len != (~nlen & 0xffffu) || in[j - 1] >= 64)
            return std::nullopt;
        return j + 4 + len;
    };
    for (uint64_t bit = fromBit; bit < toBit; ++bit) {
        if (bit % 8 == 0) {
            // Stored data is skipped whole: a compressed file stored in the stream is full of
            // block-like patterns, and the next block starts right after it.
            if (auto end = isStoredHeaderAt(bit / 8)) {
                bit = *end * 8 - 1;
                continue;
            }
        }
        // Up to the next byte's offsets from one load.
        const Bits at(in, bit);
        uint64_t w = at.peek();
        const unsigned span = unsigned(std::min<uint64_t>(8 - bit % 8, toBit - bit));
        unsigned hit = 0;
        for (; hit < span; ++hit, w >>= 1)
            if (kHeaderStarts(w))
                break;
        if (hit == span) {
            bit += span - 1;
            continue;
        }
        bit += hit;
        const Bits candidate(in, bit);
        if (!completeCodeLengthCode(candidate))
            continue;
        Bits header = candidate;
        header.skip(3);
        if (!readDynamicHeader(header, nullptr, scratch).isEmpty())
            continue;
        if (auto end = storedDataEnd(before, in, bit / 8)) {
            // Deflate blocks inside stored data (a compressed file in the tarball) are not ours.
            bit = *end * 8 - 1;
            continue;
        }
        if (!decodeFirst)
            return bit;
        Decoder decoder(in, bit, trial);
        const Decoded first = decoder.run(true);
        if (first.stop == Stop::Failed) {
            if (first.ranOut)
                return bit; // valid up to the end of what there is to look at
            continue;
        }
        // The block after it must start with a valid type.
        Bits next(in, first.endBit);
        if (first.endBit + 3 <= in.size() * 8 && ((next.peek() >> 1) & 3) == 3)
            continue;
        return bit;
    }
    return std::nullopt;
}

bool resolve(std::span<const uint16_t> symbols, std::span<const uint8_t> window, uint8_t *out)
{
    const size_t have = std::min(window.size(), kWindow);
    const size_t missing = kWindow - have; // the stream began less than kWindow before
    const uint8_t *tail = window.data() + window.size() - have;
    for (size_t i = 0; i < symbols.size(); ++i) {
        const uint16_t s = symbols[i];
        if (s < 256) {
            out[i] = uint8_t(s);
            continue;
        }
        const size_t at = size_t(s - kMarker);
        if (at < missing)
            return false;
        out[i] = tail[at - missing];
    }
    return true;
}

std::vector<uint8_t> finalBlockAt(uint8_t last, unsigned bit)
{
    std::vector<uint8_t> tail;
    tail.push_back(uint8_t((last & ((1u << bit) - 1)) | (1u << bit))); // BFINAL 1, BTYPE 00
    if (bit > 5)
        tail.push_back(0); // the type bits run into the next byte
    for (const uint8_t b : {0x00, 0x00, 0xff, 0xff}) // LEN 0, NLEN 0xffff
        tail.push_back(b);
    return tail;
}

} // namespace asc::deflate
