// SPDX-License-Identifier: MIT
#pragma once
// A btrfs file's extents (EXTENT_DATA items) and the byte source over them: inline data, regular
// extents read through the chunk map, holes and preallocated extents as zeros, zlib/lzo/zstd
// compressed extents decoded whole (at most 128 KiB each) with the last one kept.

#include "io/byte_source.h"

#include <QByteArray>
#include <memory>
#include <vector>

namespace asc::btrfs {

class Volume;

struct FileExtent {
    enum Kind { Zeros,
                Plain,
                Compressed,
                Inline };
    Kind kind = Zeros;
    uint64_t fileOffset = 0; // where it starts in the file
    uint64_t length = 0; // bytes of the file it covers
    uint64_t diskStart = 0; // logical address of its disk extent
    uint64_t diskLength = 0;
    uint64_t offset = 0; // where the file's bytes start in the (decoded) extent
    uint64_t decodedLength = 0; // ram_bytes
    uint8_t compression = 0; // 1 zlib, 2 lzo, 3 zstd
    QByteArray data; // inline bytes (decoded)
};

// One EXTENT_DATA item at file offset `at`; `name` is what errors name.
Result<FileExtent> parseFileExtent(uint64_t at, QByteArrayView item, const QString &name);
// Decodes a compressed extent (btrfs's own lzo framing included) to `decodedLength` bytes.
Result<QByteArray> decompressExtent(uint8_t compression, QByteArrayView input, uint64_t decodedLength, uint32_t sectorSize, const QString &name);
Result<SourcePtr> makeFileSource(std::shared_ptr<const Volume> volume, std::vector<FileExtent> extents, uint64_t size, QString name);

} // namespace asc::btrfs
