// SPDX-License-Identifier: MIT
#pragma once
// How an archive's own directory (zip's central directory, 7z's header) is matched to the entries
// libarchive listed: by a hash of the normalised path, never 0 (0 says "no name").

#include <QByteArray>
#include <QHash>
#include <cstdint>

namespace asc {

inline uint64_t listedPathKey(const QByteArray &normalisedPath)
{
    return uint64_t(qHash(normalisedPath, size_t(0x5a17c0de))) | 1;
}

} // namespace asc
