// SPDX-License-Identifier: MIT
#pragma once
// The walk of what reads every file below a SPEC (hash, grep): one container's
// entries in one pass (a tar.gz decoded once), then the volumes it holds (partitions, logical
// volumes, a LUKS volume's contents: their files are the disk's files), and with `intoArchives`
// the archives and compressed files among its files (by name: x.tar.gz, x.zip, x.gz, x.iso),
// each walked the same way, as deep as kMaxNesting. Files are named under `shown` paths:
// "etc/hosts", "p2!/rhel/root!/etc/fstab", "logs.tar.gz!/var/log/syslog".

#include "vfs/container.h"

#include <functional>

namespace asc {

inline constexpr int kMaxNesting = 8; // disk, partition, volume, guest disk, archive...: deeper is hostile

// One entry: its path as shown, and its content (for files). Return false to stop the walk; an
// error stops it too (the visitor reports what it can go on after itself).
using FileVisitor = std::function<Result<bool>(const ContainerPtr &container, const Entry &entry, const QByteArray &shown,
                                               const Container::ContentReader &read)>;

struct WalkFilesOptions {
    bool intoArchives = false;
    // Said when a volume or archive found on the way cannot be opened (reported by the caller).
    std::function<void(const Error &)> cannotOpen;
};

// Walks `container` (only `selection` when set: an entry or a folder). Entries of every type
// reach `visit` except the volumes and archives walked into.
Result<void> walkFiles(const ContainerPtr &container, const QByteArray &selection, const FileVisitor &visit, const WalkFilesOptions &options);

} // namespace asc
