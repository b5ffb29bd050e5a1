// SPDX-License-Identifier: MIT
#pragma once
// A volume the kernel wrote through a mount, against what the kernel showed through that mount
// (tests/data/disks/make_*.sh write NAME.files.tsv: type, path, size, sha256 or link target).

#include <QString>

namespace asc::test {

// Lists and hashes `image` with our CLI and compares every row of `truthTsv`: each path listed with
// its type, each file's size and sha256, each symlink's target, and nothing listed beyond them.
// Returns what differs (empty when all agree); `rows` receives how many rows were compared.
QString differencesFromKernel(const QString &image, const QString &truthTsv, int &rows);

} // namespace asc::test
