// SPDX-License-Identifier: MIT
// The deflate block finder and marker decoder (codecs/deflate_blocks) and a gzip member cut
// into 4 KiB regions on two threads (codecs/gzip_pieces) on arbitrary bytes. The two threads
// are the subject (pieces decoded apart, joined in order), so each input starts them; the time
// goes to the block search, which tries every bit of the input as a block start, not to them.

#include "codecs/deflate_blocks.h"
#include "codecs/gzip_stream.h"
#include "stream_fuzz_body.h"

#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace asc;
    const std::span<const uint8_t> bytes(data, size);
    deflate::Limits limits;
    limits.maxSymbols = size_t(4) << 20;
    limits.stopWhenClean = size % 2;
    const auto decoded = deflate::decode(bytes, size % 8, limits);
    std::vector<uint8_t> out(decoded.symbols.size());
    const std::vector<uint8_t> window(size % 3 ? deflate::kWindow : 100, 0x55);
    deflate::resolve(decoded.symbols, window, out.data());
    // Every bit of a 256 KiB input is a candidate: the search is bounded to the first 8 KiB after
    // the cut (a candidate's first block is still decoded to its end), or it was 80% of the time.
    deflate::findBlock(bytes.first(size / 3), bytes.subspan(size / 3), 0, 8 * 8192);

    GzipPieces::Options pieces;
    pieces.threads = 2;
    pieces.region = 4096;
    pieces.rampUp = 4096;
    GzipStream stream(fuzzInput(data, size), QStringLiteral("fuzz-input"), 4096, pieces);
    drainStream(stream);
    return 0;
}
