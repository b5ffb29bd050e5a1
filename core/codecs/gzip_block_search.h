// SPDX-License-Identifier: MIT
#pragma once
// Finding a gzip seek point (codecs/gzip_seek_points) away from the inflater: from a copy of
// ISA-L's state at a moment T and the compressed bytes after it, the next deflate block start
// is searched (its header, codecs/deflate_blocks) and proven by inflating the copy up to it
// with an empty final block put there: it finishes exactly there only if a block of the stream
// starts there. Runs on a thread of its own while the inflater goes on (on 2 cores the listing
// leaves one mostly idle), so seek points cost the first pass almost nothing.

#include "gzip_seek_points.h"

#include <memory>
#include <optional>
#include <vector>

struct inflate_state;

namespace asc {

struct BlockSearch {
    std::unique_ptr<inflate_state> state; // ISA-L's at T (a copy)
    std::vector<uint8_t> ahead; // the compressed bytes from ISA-L's input position on
    uint64_t aheadBit = 0; // the file's bit offset of ahead[0]
    uint64_t out = 0; // decoded offset at T
    QByteArray before; // the 32 KiB of output before T
};

struct FoundBlock {
    GzipSeekPoint point;
    uint32_t memberCrc = 0; // the member's CRC-32 up to the point
};

std::optional<FoundBlock> searchBlock(BlockSearch search);

} // namespace asc
