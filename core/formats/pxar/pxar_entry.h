// SPDX-License-Identifier: MIT
#pragma once
// One pxar entry as decoded: metadata (stat, xattrs, ACLs, capabilities, project id), its kind,
// and where things are (for the accessor's offsets and for reading content).

#include <QByteArray>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace asc::pxar {

enum class Kind { Directory,
                  File,
                  Symlink,
                  Hardlink,
                  CharDevice,
                  BlockDevice,
                  Fifo,
                  Socket };

struct AclEntry {
    uint64_t id = 0;
    uint64_t permissions = 0;
};

struct PxarEntry {
    QByteArray path; // "/" for the root, "/dir/name" below it
    Kind kind = Kind::Directory;
    uint64_t mode = 0; // st_mode incl. type bits
    uint64_t flags = 0;
    uint32_t uid = 0;
    uint32_t gid = 0;
    int64_t mtimeSecs = 0;
    uint32_t mtimeNanos = 0;
    uint64_t size = 0; // regular files: content bytes
    QByteArray target; // symlink target, or hardlink target path (as stored)
    uint64_t hardlinkOffset = 0;
    uint64_t deviceMajor = 0;
    uint64_t deviceMinor = 0;
    std::vector<std::pair<QByteArray, QByteArray>> xattrs;
    std::vector<AclEntry> aclUsers, aclGroups, aclDefaultUsers, aclDefaultGroups;
    std::optional<uint64_t> aclGroupObj;
    std::optional<std::array<uint64_t, 4>> aclDefault; // user_obj, group_obj, other, mask
    QByteArray fcaps;
    std::optional<uint64_t> projid;

    // Where: FILENAME item (none for the root), start of ENTRY/HARDLINK, end of the entry.
    std::optional<uint64_t> filenameOffset;
    uint64_t entryStart = 0;
    uint64_t entryEnd = 0;
    // Content: in the archive after the PAYLOAD header, or in the payload file (split archives).
    bool contentInPayloadFile = false;
    uint64_t contentOffset = 0;
};

} // namespace asc::pxar
