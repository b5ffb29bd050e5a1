// SPDX-License-Identifier: MIT
#pragma once
// The blocks of an xz file as restart points: xz keeps its own index of them at the stream's
// end (compressed and decoded offsets of every block), so no pass is needed to know them. A
// multi-block file (xz -T0, pixz) can be read from the block holding any offset; a single-block
// file has no restart point and is read from its start. Each block is decoded whole and its
// check (CRC-32/64, SHA-256) verified by liblzma before any byte of it is handed out.

#include "byte_stream.h"

#include <memory>
#include <optional>
#include <vector>

namespace asc {

struct XzBlock {
    uint64_t compressed = 0; // the block header's offset in the file
    uint64_t compressedSize = 0; // header, data, padding and check
    uint64_t out = 0; // offset in the decoded stream
    uint64_t outSize = 0;
};

struct XzBlockIndex {
    std::vector<XzBlock> blocks;
    uint32_t check = 0; // lzma_check of the stream
    uint64_t decodedSize = 0;
    bool plausible(uint64_t fileSize) const;
};

// The blocks of `source` when it is one xz stream of several blocks (nothing after it); nullopt
// otherwise (one block, several streams, padding: no restart points, read from the start).
std::optional<XzBlockIndex> readXzBlocks(const ByteSource &source);

// The decoded stream from `offset` on, from the block holding it.
Result<StreamPtr> openXzAt(SourcePtr source, std::shared_ptr<const XzBlockIndex> index, uint64_t offset, const QString &where);

} // namespace asc
