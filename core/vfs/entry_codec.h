// SPDX-License-Identifier: MIT
#pragma once
// One encoding of a list of entries as bytes: what a worker sends its client and what an archive
// index keeps. Compact (200,000 entries for a large tarball; an index is mostly its listing):
// columns of varints, paths front-coded, owner names once (entry_codec.cpp). A short or
// inconsistent encoding sets the stream's status to ReadCorruptData; what it decodes to is only
// bounded by its own length.

#include "vfs/entry.h"

#include <QDataStream>
#include <vector>

namespace asc {

QDataStream &operator<<(QDataStream &out, const std::vector<Entry> &entries);
QDataStream &operator>>(QDataStream &in, std::vector<Entry> &entries);

} // namespace asc
