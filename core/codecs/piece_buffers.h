// SPDX-License-Identifier: MIT
#pragma once
// GzipPieces' memory: output buffers (address space mapped without zeroing, pages faulted in as
// they are written) and the marker decoder's symbol arrays, kept for reuse once handed out:
// fresh pages cost more than inflating into them. Taken and given back from the pool's threads
// and the reader's, under their own lock.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace asc {

struct PieceBuffer {
    struct Unmap {
        size_t bytes; // no initialiser: GCC would not see the deleter as default-constructible
        void operator()(uint8_t *p) const;
    };
    std::unique_ptr<uint8_t[], Unmap> data;
    size_t capacity = 0;
    size_t size = 0;
    // To `to` bytes, the first `keep` kept; throws std::bad_alloc when no address space is left.
    void grow(size_t to, size_t keep);
};

class PieceBuffers {
public:
    // Keeps up to `keep` of each; a new buffer gets room for `roomy` bytes (at most `most`), so
    // that it is seldom grown.
    PieceBuffers(size_t keep, size_t roomy, size_t most);

    // The smallest spare that holds `capacity`, else the biggest grown to it; empty (size 0).
    PieceBuffer take(size_t capacity);
    void give(PieceBuffer buffer);
    std::vector<uint16_t> takeSymbols();
    void giveSymbols(std::vector<uint16_t> symbols);

private:
    const size_t keep_;
    const size_t roomy_;
    const size_t most_;
    std::mutex mutex_;
    std::vector<PieceBuffer> spare_;
    std::vector<std::vector<uint16_t>> spareSymbols_;
};

} // namespace asc
