// SPDX-License-Identifier: MIT
#pragma once
// One entry's bytes assembled from a decoder's blocks, exactly as the decoder produced them.
// Zeros are written only in the holes of an entry with a sparse map; an entry that ends short
// of its recorded size, runs past it, skips ahead without holes, or whose block read failed (a
// checksum mismatch is a warning from libarchive) is an error, never padding. Kept apart from
// libarchive so a test can feed it the blocks a misbehaving decoder hands back.

#include "io/result.h"
#include "vfs/entry.h"

#include <cstdint>
#include <span>

namespace asc {

class EntryContent {
public:
    // A piece of the content at `offset` within the entry; `end` after the last. A block may be
    // empty without being the end: LHA and RAR5 hand back nothing while their decoder takes in
    // more input (reading that as the end once padded whole entries with zeros).
    struct Block {
        const char *data = nullptr;
        size_t size = 0;
        int64_t offset = 0;
        bool end = false;
    };
    // Where the blocks come from.
    class Blocks {
    public:
        virtual ~Blocks() = default;
        virtual Result<Block> nextBlock() = 0;
        // Input consumed so far: empty blocks while it does not move mean a stuck decoder.
        virtual uint64_t inputPosition() const = 0;
        // An error naming the entry and where in it the content stands (position()).
        virtual Error contentError(const QString &what) const = 0;
    };

    // A new entry: `size` is its recorded size (kUnknown when nothing records one: the content
    // then ends with the data); `sparse` when it has a sparse map.
    void start(uint64_t size, bool sparse);
    // An entry without content (or an empty one): read() returns 0 at once.
    void startEmpty();
    // Up to out.size() bytes; 0 at the end of the entry.
    Result<size_t> read(std::span<char> out, Blocks &blocks);
    uint64_t position() const { return pos_; }

private:
    bool stuck(const Blocks &blocks);
    Result<void> confirmEnd(Blocks &blocks);

    uint64_t size_ = 0;
    uint64_t pos_ = 0;
    bool sparse_ = false;
    const char *data_ = nullptr; // the rest of the current block, which starts at dataOffset_
    size_t left_ = 0;
    uint64_t dataOffset_ = 0;
    bool done_ = false; // the decoder said the entry ends
    int emptyBlocks_ = 0; // in a row, since the input was last at emptyBlocksAt_
    uint64_t emptyBlocksAt_ = 0;
};

} // namespace asc
