// SPDX-License-Identifier: MIT
#pragma once
// The archive index (formats/archive/index_cache) as the shells see it: on or off for the
// process, what an archive's index holds (made by one full pass when missing), and removing it.

#include "open/spec.h"

#include <QStringList>

namespace asc {

void setArchiveIndexesEnabled(bool enabled); // --no-index
bool archiveIndexesEnabled();

struct ArchiveIndexFacts {
    QString file; // where it is stored
    uint64_t fileBytes = 0;
    bool builtNow = false;
    QString format;
    QStringList filters;
    uint64_t members = 0;
    uint64_t decodedBytes = 0;
    uint64_t seekPoints = 0; // 0: the filter has none here
    uint64_t largestSpanBytes = 0; // compressed bytes between two points, at most
};

// The index of the archive at `location`, built by listing it when missing.
Result<ArchiveIndexFacts> archiveIndexAt(const Location &location);
// Removes it; whether there was one.
Result<bool> dropArchiveIndex(const Location &location);

} // namespace asc
