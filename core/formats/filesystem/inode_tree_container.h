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

    // What the readers share in building and opening entries.
    // st_mode's type bits as an entry type.
    static EntryType typeOfMode(uint32_t mode);
    // A device number as Linux encodes it (new_encode_dev: 12 bits of major, 20 of minor).
    static void setLinuxDevice(Entry &e, uint32_t dev);
    // `error` as the entry's problem (listed all the same), reported when `report` is set.
    void setUnreadable(Entry &e, Error error, bool report) const;
    // The SPEC-style name of an entry ("volume!/path"), what errors about it name.
    QString entryName(const Entry &e) const;
    // An error unless `e` is a file with its inode in dataOffset (what open() can read).
    Result<void> checkOpenable(const Entry &e) const;
};

} // namespace asc
