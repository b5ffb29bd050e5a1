// SPDX-License-Identifier: MIT
#pragma once
// Split and multi-volume sets, found by their names as 7-Zip, Info-ZIP and RAR name them, from any
// of their parts: NAME.001, NAME.002, ... (7-Zip's and split(1)'s plain splits of any file);
// NAME.z01 ... NAME.zNN, NAME.zip (Info-ZIP); NAME.part1.rar, NAME.part2.rar, ... and NAME.rar,
// NAME.r00, NAME.r01, ... (RAR volumes). Each format defines its set as its parts end to end, so a
// set is read as their concatenation (what libarchive's volume switching reads too).

#include "io/byte_source.h"

#include <QStringList>
#include <functional>
#include <optional>

namespace asc {

struct SplitSet {
    QString kind; // "numbered", "zip", "rar"
    QStringList parts; // in order, each an existing file
};

// The set `path` is a part of, when its name says it is one (a set of one part is no set); an error
// naming its first or last part when that is missing. `exists` answers for a sibling's name (a stat
// in the parent; an open asked of the parent in a sandboxed worker, which may not stat).
using PartExists = std::function<bool(const QString &)>;
Result<std::optional<SplitSet>> splitSetOf(const QString &path, const PartExists &exists);
// The set `path` is a part of, its parts opened and read as one source named `path`; nullopt when
// `path` is no part of a set. An Info-ZIP set missing a middle part is an error naming it (its
// last part says how many there are).
Result<std::optional<SourcePtr>> openSplitSet(const QString &path);

} // namespace asc
