// SPDX-License-Identifier: MIT
#pragma once
// The bit-level side of deflate (RFC 1951), for decoding one gzip member on several cores.
// A member is one chain of blocks, and a block may copy from the 32 KiB before it, so the
// middle of a member cannot simply be handed to an inflater. But a dynamic-Huffman block's
// header is recognisable at its bit offset (its code lengths must form complete prefix codes),
// and decoding from there works without the 32 KiB before: a copy from before the start gives
// a marker naming which byte of that window it is, filled in once the window is known. After a
// while the last 32 KiB decoded hold no marker any more, and a real inflater (ISA-L) can take
// over with them as its dictionary. This file finds such blocks and decodes with markers; it is
// not fast, it only has to bridge the start of each piece. codecs/gzip_pieces puts it to use.

#include <QString>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace asc::deflate {

constexpr size_t kWindow = 32768;
// A decoded symbol: below 256 a byte; kMarker + i is byte i of the window before the start
// (i = 0 the oldest), not known yet.
constexpr uint16_t kMarker = 256;

struct Limits {
    // Stop when a block ends exactly here; a block ending past it is a failure. UINT64_MAX: none.
    uint64_t stopBit = UINT64_MAX;
    // Stop at the first block end after which the last kWindow symbols hold no marker.
    bool stopWhenClean = false;
    // Stop with an error beyond this many symbols (a bound on memory).
    size_t maxSymbols = size_t(64) << 20;
};

enum class Stop {
    AtStopBit, // a block ended exactly at Limits::stopBit
    Clean, // the window is known from here on (stopWhenClean)
    FinalBlock, // the last block of the stream ended
    Failed, // invalid data, input ran out, too much output, or a block ran past stopBit
};

struct Decoded {
    std::vector<uint16_t> symbols;
    uint64_t endBit = 0; // where decoding stopped: a block boundary unless it failed
    Stop stop = Stop::Failed;
    QString error; // for Failed
    uint64_t errorBit = 0; // where the failure was seen
    bool ranOut = false; // the failure is the end of the input
};

// Decodes blocks from `startBit` of `in` (counted from in[0], least significant bit first) until
// one of the limits. `storage`: a vector to decode into (its memory reused).
Decoded decode(std::span<const uint8_t> in, uint64_t startBit, const Limits &limits, std::vector<uint16_t> storage = {});

// The first bit in [fromBit, toBit) where a non-final dynamic-Huffman block plausibly starts:
// its header is valid, it does not lie inside a stored block's data (the blocks of a compressed
// file stored in the stream look like blocks too; `before` holds the 64 KiB before in[0], where
// known), and its first block decodes to its end (or to the end of `in`) with distances that stay
// within 32 KiB of its start. A chance match is still possible; what it decodes to is checked
// when the block before it is known to end there.
// Without `decodeFirst`, the header alone is checked (for a caller that proves the start anyway,
// faster than decoding the block here).
std::optional<uint64_t> findBlock(std::span<const uint8_t> before, std::span<const uint8_t> in, uint64_t fromBit, uint64_t toBit, bool decodeFirst = true);

// Replaces the markers of `symbols` by the bytes of `window` (the kWindow bytes before the
// start; shorter when the stream began less than kWindow before) into `out`. False when a
// marker names a byte before the window's start.
bool resolve(std::span<const uint16_t> symbols, std::span<const uint8_t> window, uint8_t *out);

// The byte holding `bit` (`last`), cut there, then an empty stored final block: an inflater
// that reads this finishes exactly at its end only if a block of the stream ends at that bit
// (how a block start is proven). Stored blocks align to bytes, so the bits before keep their
// offsets.
std::vector<uint8_t> finalBlockAt(uint8_t last, unsigned bit);

} // namespace asc::deflate
