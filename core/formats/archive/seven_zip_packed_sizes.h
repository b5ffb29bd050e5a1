// SPDX-License-Identifier: MIT
#pragma once
// What libarchive does not tell about a 7z: the bytes each solid block (folder) takes, read from
// the archive's own header (decoded when it is LZMA/LZMA2-compressed, as 7-Zip writes it). As
// 7-Zip lists it, a block's packed size belongs to its first file; the other files of a solid
// block have none of their own and stay unknown. Entries are matched by their position and
// name: one that does not match keeps its size unknown.

#include "io/byte_source.h"
#include "vfs/entry.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace asc {

class SevenZipPackedSizes {
public:
    // nullopt: not a 7z we can read the header of (encrypted names, an unknown header coder,
    // damaged); the listing then has no compressed sizes.
    static std::optional<SevenZipPackedSizes> read(const ByteSource &source);
    // Sets entry.compressedSize when the entry is the file at its ordinal and starts a block.
    void fill(Entry &entry) const;
    size_t files() const { return files_.size(); }

private:
    struct File {
        uint64_t nameHash = 0;
        uint64_t packed = kUnknown;
    };
    std::vector<File> files_; // in the header's order, which is libarchive's
};

} // namespace asc
