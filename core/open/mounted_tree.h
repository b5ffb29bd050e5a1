// SPDX-License-Identifier: MIT
#pragma once
// What a read-only mount of a SPEC shows (app/cli/command_mount.cpp is the FUSE side): the SPEC's
// container as a tree of nodes, filled as folders are first looked into; partitions, and with
// `recursive` files that open as containers (archives, images, filesystems), shown as folders
// of what they hold (ratarmount's --recursive). Nodes are never removed: a node number is a
// stable inode. Every container is the worker's (remote/remote_container.h): nothing is
// parsed in the mounting process. Thread safe.

#include "vfs/entry_tree.h"

#include <QHash>
#include <QString>
#include <mutex>
#include <optional>
#include <sys/stat.h>
#include <unordered_map>

namespace asc {

class MountedTree {
public:
    // `root` is the SPEC's container; `spec` names it; `fileMtime` (the SPEC's file's) is the time
    // of what has none of its own.
    MountedTree(ContainerPtr root, QString spec, bool recursive, int64_t fileMtime);

    static constexpr int32_t kRoot = EntryTree::kRoot;
    // The child of `folder` named `name`; NotFound when none; an Error when listing failed.
    Result<int32_t> lookup(int32_t folder, QByteArrayView name);
    // What stat(2) says of `node` (the mounting user owns everything; nothing is writable).
    Result<struct stat> attributes(int32_t node);
    // The children of `folder`, listed on first use.
    Result<std::vector<std::pair<int32_t, QByteArray>>> children(int32_t folder);
    Result<QByteArray> linkTarget(int32_t node);
    // The file type bits of `node` (S_IFDIR, S_IFREG, ...) when known without opening anything;
    // 0 for a partition or archive not tried yet (a readdir's d_type).
    mode_t knownType(int32_t node) const;
    // The content of a file node, to read from.
    Result<SourcePtr> open(int32_t node);
    bool valid(int32_t node) const;
    QString spec(int32_t node) const;

private:
    // A node shown as a folder: a directory, a layer's root, or a partition (or, recursive, an
    // archive) that opens as a container; opened now if it has not been tried.
    bool shownAsFolder(int32_t node, std::unique_lock<std::mutex> &lock);
    Result<void> fill(int32_t folder, std::unique_lock<std::mutex> &lock);
    int32_t childNamed(int32_t folder, QByteArrayView name);

    mutable std::mutex mutex_;
    EntryTree tree_;
    bool recursive_;
    int64_t fileMtime_;
    uid_t uid_;
    gid_t gid_;
    std::vector<uint8_t> state_; // per node: what has been done (kFilled, kTriedOpen, kOpens)
    // Per filled folder looked into: its children by name (a folder of 10,000 is not scanned per lookup).
    std::unordered_map<int32_t, QHash<QByteArray, int32_t>> byName_;
};

} // namespace asc
