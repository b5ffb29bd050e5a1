// SPDX-License-Identifier: MIT
#pragma once
// One encoding of a list of entries as bytes: what a worker sends its client and what an archive
// index keeps. Packed by hand (200,000 entries for a large tarball), one fixed record and the
// six byte strings per entry, in native byte order (both ends are this program on this machine;
// the index file records its byte order). A short or inconsistent encoding sets the stream's
// status to ReadCorruptData.

#include "vfs/entry.h"

#include <QDataStream>
#include <vector>

namespace asc {

QDataStream &operator<<(QDataStream &out, const std::vector<Entry> &entries);
QDataStream &operator>>(QDataStream &in, std::vector<Entry> &entries);

} // namespace asc
