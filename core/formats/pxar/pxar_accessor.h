// SPDX-License-Identifier: MIT
#pragma once
// The random-access pxar accessor: finds the root from the end of the archive and walks
// directories through their goodbye tables (hash of the name, then compare), reading only what a
// lookup needs. Thread safe for concurrent use (all reads are positional).

#include "pxar_entry.h"
#include "io/byte_source.h"

#include <functional>

namespace asc::pxar {

struct GoodbyeRow {
    uint64_t hash = 0;
    uint64_t offset = 0;
    uint64_t size = 0;
};

struct Directory {
    uint64_t entryStart = 0;
    uint64_t goodbyeStart = 0;
    uint64_t end = 0;
    std::vector<GoodbyeRow> rows; // table order (a binary search tree by hash)
};

class Accessor {
public:
    // `payload` is the .ppxar of a split archive, else null.
    static Result<std::shared_ptr<Accessor>> open(SourcePtr archive, SourcePtr payload);

    const PxarEntry &root() const { return root_; }
    uint64_t formatVersion() const { return version_; }
    // The goodbye table of a directory entry (the root, or one returned by list/lookup).
    Result<Directory> directory(const PxarEntry &dir) const;
    // Decodes the child described by a goodbye row; `parentPath` is the directory's path.
    Result<PxarEntry> child(const Directory &dir, const GoodbyeRow &row, const QByteArray &parentPath) const;
    // Decodes a child from bytes already read at `window` (async prefetch); reads more if short.
    Result<PxarEntry> childFromWindow(const Directory &dir, const GoodbyeRow &row, const QByteArray &parentPath,
                                      uint64_t windowOffset, const QByteArray &window) const;
    // Every child, in table order.
    Result<std::vector<PxarEntry>> list(const PxarEntry &dir) const;
    // A path below the root ("/a/b", "a/b"); nullopt when it does not exist.
    Result<std::optional<PxarEntry>> lookup(const QByteArray &path) const;
    // The regular file a hardlink stands for (its metadata and content).
    Result<PxarEntry> resolveHardlink(const PxarEntry &link) const;
    // The content of a regular file as a byte source (a slice of the archive or payload file).
    Result<SourcePtr> content(const PxarEntry &file) const;

    const SourcePtr &archive() const { return archive_; }
    const SourcePtr &payload() const { return payload_; }
    // How many bytes a child decode reads at once.
    static constexpr size_t kWindow = 4096;

private:
    Accessor(SourcePtr archive, SourcePtr payload)
        : archive_(std::move(archive)),
          payload_(std::move(payload)) {}
    Result<Directory> directoryAt(uint64_t end, uint64_t lowerBound) const;
    Result<PxarEntry> decodeAt(uint64_t filenameOffset, uint64_t end, const QByteArray &parentPath, uint64_t expectedHash,
                               uint64_t windowOffset, const QByteArray *window) const;

    SourcePtr archive_;
    SourcePtr payload_;
    PxarEntry root_;
    uint64_t version_ = 1;
};

} // namespace asc::pxar
