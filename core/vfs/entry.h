// SPDX-License-Identifier: MIT
#pragma once
// One entry of a container, as a compact value record (a million of these must stay cheap).

#include <QByteArray>
#include <QString>
#include <cstdint>

namespace asc {

enum class EntryType : uint8_t { File,
                                 Dir,
                                 Symlink,
                                 Hardlink,
                                 CharDev,
                                 BlockDev,
                                 Fifo,
                                 Socket,
                                 Partition };

// The names CLI.md uses: "file", "dir", "symlink", ...
QString entryTypeName(EntryType type);
// ls -l style: type letter and rwx bits with setuid/setgid/sticky, e.g. "drwxr-sr-x".
QString permissionText(EntryType type, uint32_t mode);

inline constexpr uint64_t kUnknown = UINT64_MAX;

struct Entry {
    QByteArray path; // raw bytes, '/'-separated, relative, no trailing '/'
    QByteArray target; // symlink text or hardlink target path
    QByteArray uname; // owner and group names where the format stores them (shared, interned)
    QByteArray gname;
    QByteArray detail; // format-specific words (a partition's type and filesystem), may be empty
    QByteArray problem; // why this entry cannot be read (listed all the same); empty when readable
    uint64_t size = 0; // content bytes (0 for non-files)
    uint64_t compressedSize = kUnknown;
    uint64_t dataOffset = kUnknown; // where the content starts in the container, if known
    uint64_t ordinal = 0; // position in archive order
    int64_t mtime = 0; // seconds since the epoch
    uint32_t mtimeNsec = 0;
    uint32_t mode = 0; // permission bits & 07777
    uint32_t uid = 0;
    uint32_t gid = 0;
    uint32_t rdevMajor = 0;
    uint32_t rdevMinor = 0;
    EntryType type = EntryType::File;
    bool encrypted = false;
    bool hasMtime = false;
    bool unsafePath = false; // a ".." in its name (or a hardlink to an absolute path): never extracted
    bool opaque = false; // content with no format of its own to open (an extended partition's EBR chain)

    QByteArray name() const; // last path component
    bool isDir() const { return type == EntryType::Dir; }
};

} // namespace asc
