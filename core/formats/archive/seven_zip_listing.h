// SPDX-License-Identifier: MIT
#pragma once
// 7-Zip's technical listing (`7zz l -slt`) as entries: what 7zz says about the archive (Type,
// Method, Solid, Blocks, ...) and, per item, Path, Size, Packed Size, Modified (UTC: the jail runs
// 7zz with TZ=UTC), Attributes (Windows letters and a Unix mode), CRC, Encrypted and Method.

#include "io/result.h"
#include "vfs/entry.h"

#include <QJsonObject>
#include <optional>
#include <vector>

namespace asc {

struct SevenZipItem {
    Entry entry;
    std::optional<uint32_t> crc; // files with content carry one
    uint64_t streamBytes = 0; // what `x -so` writes for it: a file's content, a symlink's target
    QString method;
};

struct SevenZipListing {
    QJsonObject archive; // the archive's own lines ("Type", "Method", "Solid", "Blocks", ...)
    std::vector<SevenZipItem> items; // in archive order (what `x -so` writes them in)
    bool anyEncrypted = false;
};

// `what` names the archive in errors. A listing without the "----------" line that starts the
// items is an error (7zz said something else).
Result<SevenZipListing> parseSevenZipListing(const QByteArray &text, const QString &what);

} // namespace asc
