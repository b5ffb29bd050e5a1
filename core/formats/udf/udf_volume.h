// SPDX-License-Identifier: MIT
#pragma once
// UDF (ECMA-167 / OSTA UDF 1.02 to 2.60) as Windows install ISOs, DVDs, Blu-ray and mkudffs write
// it, read from a byte source: the anchor at sector 256 (2048-, 512- or 4096-byte sectors), the
// volume descriptors, physical, sparable and metadata partitions (UDF 2.50+), File Entries and
// Extended File Entries with short, long or embedded allocation descriptors (and their
// continuation extents), directories of File Identifier Descriptors, CS0 names. Each
// descriptor's tag (id, checksum, location) is checked; a virtual (VAT, CD-R) partition is
// refused by name.

#include "formats/filesystem/block_run_source.h"
#include "io/byte_source.h"

#include <QByteArray>
#include <memory>
#include <vector>

namespace asc::udf {

// Where an ICB (a file's entry) lies: a block of a partition.
struct Address {
    uint32_t block = 0;
    uint16_t partition = 0;
    uint64_t key() const { return uint64_t(partition) << 32 | block; }
    static Address fromKey(uint64_t key) { return {uint32_t(key), uint16_t(key >> 32)}; }
};

struct Node {
    uint8_t fileType = 0; // ICB tag: 4 folder, 5 file, 12 symlink, ...
    uint32_t uid = 0, gid = 0, permissions = 0;
    uint16_t links = 0;
    uint64_t size = 0;
    int64_t mtime = 0;
    uint32_t mtimeNsec = 0;
    std::vector<BlockRun> runs; // the content in logical blocks (physical: absolute block on the source)
    QByteArray embedded; // content held in the entry itself (no runs)
    bool isEmbedded = false;
    bool isDir() const { return fileType == 4; }
};

struct DirEntry {
    QByteArray name; // UTF-8
    Address icb;
    bool dir = false;
};

class Volume {
public:
    static Result<std::shared_ptr<Volume>> open(SourcePtr source);

    Result<Node> node(Address at) const;
    Result<std::vector<DirEntry>> directory(const Node &dir, const QString &where) const;
    // A file's content (runs, or the bytes embedded in its entry).
    Result<SourcePtr> content(const Node &node, const QString &name) const;
    // A symlink's path components joined as a path.
    Result<QByteArray> linkTarget(const Node &node, const QString &where) const;

    Address root() const { return root_; }
    uint32_t blockSize() const { return blockSize_; }
    QString volumeName() const { return volumeName_; }
    QString revision() const;
    bool hasMetadataPartition() const;
    const SourcePtr &source() const { return source_; }

private:
    struct Partition {
        uint16_t number = 0;
        uint32_t start = 0; // physical block
        uint32_t length = 0;
    };
    struct Map {
        enum class Kind { Physical,
                          Metadata } kind = Kind::Physical;
        int physical = -1; // index into partitions_
        std::vector<BlockRun> metadataRuns; // Metadata: where its blocks lie (absolute blocks)
    };

    Result<QByteArray> readBlocks(uint64_t absoluteBlock, uint32_t count) const;
    // A descriptor of `id` at `absoluteBlock` (tag checked), `bytes` long.
    Result<QByteArray> descriptor(uint64_t absoluteBlock, uint16_t id, uint32_t bytes, uint32_t taggedLocation) const;
    // `count` blocks from `block` of partition map `map` as absolute runs (a metadata partition's
    // blocks lie where its file's extents say).
    Result<std::vector<BlockRun>> place(uint16_t map, uint32_t block, uint64_t count, uint64_t logical) const;
    Result<Node> readEntry(Address at, const std::vector<BlockRun> *metadataFile) const;
    Result<QByteArray> readAll(const Node &node, const QString &where, uint64_t limit) const;

    SourcePtr source_;
    uint32_t blockSize_ = 2048;
    std::vector<Partition> partitions_;
    std::vector<Map> maps_;
    Address root_;
    QString volumeName_;
    uint16_t udfRevision_ = 0;
};

// Whether `head` (the source's first 64 KiB) has the volume recognition sequence of UDF.
bool hasUdfRecognition(std::span<const char> head);

} // namespace asc::udf
