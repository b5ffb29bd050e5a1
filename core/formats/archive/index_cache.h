// SPDX-License-Identifier: MIT
#pragma once
// Where archive indexes are kept: $XDG_CACHE_HOME/archivescope/index/ (~/.cache when unset), a
// file per archive named by a hash of its identity: device, inode, size, modification time in
// nanoseconds, and a hash of its first and last 64 KiB. An archive that changed has another
// identity, so its old index is never used (and ages out). Written atomically; the folder is
// kept under a size limit (default 1 GiB), the least recently used files going first.
// In a worker, reading goes through its parent's file grants and writing through its parent
// (io/atomic_file's writer): the worker never writes a file itself.

#include "archive_index.h"
#include "io/byte_source.h"

#include <optional>

namespace asc::index_cache {

// Process-wide: --no-index turns reading and writing indexes off.
void setEnabled(bool enabled);
bool enabled();
// The folder; $ARCHIVESCOPE_INDEX_DIR overrides it (tests).
QString directory();
// The identity of `source` when it is a file of its own, or a member stored as it is in one (a
// tar.gz inside a tar, a .deb's data.tar.xz: its offset and size join the file's identity);
// none for an entry decoded out of another.
std::optional<QByteArray> identityOf(const ByteSource &source);
// The index file for an identity: directory() + a SHA-256 of it in hex + ".idx".
QString pathFor(const QByteArray &identity);
// Whether `path` names an index file in directory() (what a worker's parent lets it read and write).
bool isIndexPath(const QString &path);

// The index for `source`, when one is stored and valid for its current identity (null
// otherwise; a damaged one with a notice). The last two loaded are kept: a probe and the open
// after it decode it once.
std::shared_ptr<const ArchiveIndex> load(const ByteSource &source);
// An index just made, for the next load() of its file in this process.
void remember(std::shared_ptr<const ArchiveIndex> index);
// Stores `index` (its identity set) and trims the folder to `limit` bytes.
Result<QString> save(const ArchiveIndex &index);
// Removes the folder's oldest files until it holds at most `limit` bytes.
void trim(uint64_t limit = uint64_t(1) << 30);
// A line on stderr ("archivescope: note: ..."): an index is only a shortcut, so what goes wrong
// with one (damaged, not written, not matching its archive) is told, not a failure.
void notice(const QString &text);
// Removes the index of `source`; whether there was one.
Result<bool> drop(const ByteSource &source);

} // namespace asc::index_cache
