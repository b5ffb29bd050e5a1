// SPDX-License-Identifier: MIT
#include "gzip_block_search.h"

#include "deflate_blocks.h"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include <cstring>

namespace asc {

namespace {

constexpr size_t kMaxProof = size_t(4) << 20; // output between T and the block start
constexpr int kCandidates = 8;

// Inflates the copy from T to `bit` (relative to ahead[0]) with an empty final block put there:
// the output between, when a block of the stream really starts at `bit`.
bool proveAt(const BlockSearch &search, uint64_t bit, inflate_state &probe, uint8_t *out, size_t &between)
{
    std::memcpy(&probe, search.state.get(), sizeof(inflate_state));
    probe.crc_flag = ISAL_DEFLATE; // no trailer after the final block put at `bit`
    const uint64_t endByte = bit / 8;
    const std::vector<uint8_t> tail = deflate::finalBlockAt(search.ahead[size_t(endByte)], unsigned(bit % 8));
    const uint32_t startOut = probe.total_out;
    const std::span<const uint8_t> parts[] = {std::span(search.ahead.data(), size_t(endByte)), tail};
    for (int part = 0; part < 2; ++part) {
        probe.next_in = const_cast<uint8_t *>(parts[part].data());
        probe.avail_in = uint32_t(parts[part].size());
        for (;;) {
            const uint32_t written = probe.total_out - startOut;
            probe.next_out = out + written;
            probe.avail_out = uint32_t(kMaxProof - written);
            if (isal_inflate(&probe) < 0)
                return false;
            if (probe.block_state == ISAL_BLOCK_FINISH) {
                if (part != 1 || probe.avail_in != 0 || probe.read_in_length != 0)
                    return false; // a final block of the member's own ends before
                break;
            }
            if (probe.avail_out == 0 || probe.avail_in == 0)
                break;
        }
    }
    if (probe.block_state != ISAL_BLOCK_FINISH)
        return false;
    between = probe.total_out - startOut;
    return true;
}

} // namespace

std::optional<FoundBlock> searchBlock(BlockSearch search)
{
    if (search.ahead.size() < 64 || search.before.size() != qsizetype(deflate::kWindow))
        return std::nullopt;
    auto probe = std::make_unique<inflate_state>();
    auto out = std::make_unique_for_overwrite<uint8_t[]>(kMaxProof); // only what ISA-L writes is read
    uint64_t from = 0;
    for (int attempt = 0; attempt < kCandidates; ++attempt) {
        // A header that checks out is proven by ISA-L (faster than decoding its block here).
        const auto candidate = deflate::findBlock({}, search.ahead, from, (search.ahead.size() - 8) * 8, false);
        if (!candidate)
            return std::nullopt;
        size_t between = 0;
        if (proveAt(search, *candidate, *probe, out.get(), between)) {
            FoundBlock found;
            // The 32 KiB before the block: what was made before T, then what the proof made.
            QByteArray window;
            if (between < deflate::kWindow)
                window.append(search.before.constData() + between, qsizetype(deflate::kWindow - between));
            const size_t fromProof = std::min(between, deflate::kWindow);
            window.append(reinterpret_cast<const char *>(out.get() + between - fromProof), qsizetype(fromProof));
            found.point.out = search.out + between;
            found.point.bit = search.aheadBit + *candidate;
            found.point.window = std::move(window);
            // The member's CRC there: ISA-L's own at T, then the proof's bytes.
            found.memberCrc = uint32_t(crc32_combine(search.state->crc, crc32_gzip_refl(0, out.get(), between), z_off_t(between)));
            return found;
        }
        from = *candidate + 1;
    }
    return std::nullopt;
}

} // namespace asc
