// SPDX-License-Identifier: MIT
#pragma once
// What a filesystem of inodes and directories (ext, XFS) has in common as a container: folders read
// one at a time for the tree, the whole volume walked depth first for listings, paths found folder
// by folder. An entry's dataOffset is its inode number; a subclass reads one folder.

#include "vfs/container.h"

namespace asc {

class InodeTreeContainer : public Container {
public:
    Result<void> list(const EntrySink &sink) override;
    bool listsFolderByFolder() const override { return true; }
    Result<void> listDirectory(const Entry &dir, const EntrySink &sink) override;
    Result<Entry> find(const QByteArray &path) override;
    bool impliesDirectories() const override { return false; }

protected:
    using FolderSink = std::function<bool(Entry &&)>;
    // The entries of the folder at inode `folder`, named under `parent` ("" or "a/b/"), each with
    // its inode in dataOffset and the next ordinal. An entry that cannot be read is listed with
    // its problem, and reported (vfs/problems.h) when `report` is set: listings report, lookups of
    // one path do not (a damaged sibling is not the looked-up file's problem).
    virtual Result<void> readFolder(uint64_t folder, const QByteArray &parent, const FolderSink &sink, uint64_t &ordinal, bool report) = 0;
    virtual uint64_t rootInode() const = 0;
};

} // namespace asc
