// SPDX-License-Identifier: MIT
#pragma once
// A pxar encoder: writes a tree as a v1 archive, or as a v2 split pair (.mpxar + .ppxar), laid
// out exactly as the reference does (children sorted byte-wise, goodbye tables in BST order).
// Used by tests and benchmarks to build archives of any shape and size.

#include "pxar_entry.h"
#include "io/result.h"

#include <QString>
#include <memory>
#include <vector>

namespace asc::pxar {

// One node of the tree to write. Directories own children; files name where their content comes
// from (a path on disk, or bytes in memory).
struct WriterNode {
    QByteArray name; // empty for the root
    PxarEntry meta; // kind, mode (with type bits), flags, uid, gid, mtime, target, device, xattrs, ACLs, fcaps, projid
    QString contentPath; // regular file read from disk, or
    QByteArray contentBytes; // regular file content in memory
    uint64_t contentSize = 0;
    std::vector<WriterNode> children;
    // Hardlinks: a node with kind Hardlink names its target by archive path (without leading '/').
};

// Builds nodes from a directory on disk (lstat metadata, user/trusted xattrs, hardlinks by inode).
Result<WriterNode> scanDirectory(const QString &path);

struct WriteOptions {
    bool split = false; // v2: metadata archive + payload file
    QByteArray prelude; // v2 only
};

// Writes `root` to `archivePath` (and `payloadPath` when split). Files are written atomically.
Result<void> writeArchive(const WriterNode &root, const QString &archivePath, const QString &payloadPath, const WriteOptions &options);

} // namespace asc::pxar
