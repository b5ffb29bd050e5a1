// SPDX-License-Identifier: MIT
#pragma once
// What libarchive does not tell about a zip: each member's compressed size, read from the
// central directory (EOCD, zip64) and matched to libarchive's entries by their decoded name and
// size. An entry that matches no record keeps its compressed size unknown, never a guess.

#include "io/byte_source.h"
#include "vfs/entry.h"

#include <QByteArray>
#include <cstdint>
#include <optional>
#include <vector>

namespace asc {

class ZipPackedSizes {
public:
    // The central directory of the zip in `source`, names decoded as the listing decodes them
    // (`charset` as in decodeLegacyName); nullopt when there is none we can use (not a zip,
    // damaged, or larger than we read for this).
    static std::optional<ZipPackedSizes> read(const ByteSource &source, const QByteArray &charset);
    // Sets entry.compressedSize for a file whose record is found (each record used once, so a
    // name written twice gets each copy's size in turn).
    void fill(Entry &entry);
    size_t records() const { return records_.size(); }

private:
    struct Record {
        uint64_t nameHash = 0;
        uint64_t unicodeHash = 0; // the Info-ZIP Unicode Path's name (0: none)
        uint64_t size = 0;
        uint64_t packed = 0;
        uint64_t localOffset = 0;
        bool used = false;
    };
    std::vector<Record> records_; // by nameHash, then localOffset
    std::vector<uint32_t> byUnicode_; // indexes of records with a Unicode Path, by unicodeHash
};

} // namespace asc
