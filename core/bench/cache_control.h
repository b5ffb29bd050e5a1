// SPDX-License-Identifier: MIT
#pragma once
// Cold-cache runs: evict a file's pages with posix_fadvise(POSIX_FADV_DONTNEED), then check with
// mincore how much is still resident (the kernel may keep pages that are mapped or dirty).

#include "io/result.h"

namespace asc {

struct EvictionOutcome {
    double residentFraction = -1; // after eviction, 0..1; -1 when it could not be checked
    bool verified() const { return residentFraction >= 0 && residentFraction < 0.01; }
};

Result<EvictionOutcome> evictFromPageCache(const QString &path);
// Fraction of the file's pages in the page cache (mincore), -1 if unknown.
double residentFraction(const QString &path);

} // namespace asc
