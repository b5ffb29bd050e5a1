// SPDX-License-Identifier: MIT
#pragma once
// Opening a SPEC off the UI thread through the facade (open/inspection.h): what it is, its first
// 64 KiB for the hex view, a disk image's map, and its container to list.

#include "open/inspection.h"

#include <QFuture>

namespace asc::ui {

inline constexpr size_t kHeadBytes = 64 * 1024;

// Legacy names are decoded from `nameCharset` (empty: as stored), for this file and what it holds.
// Problems reported on the way are in the inspection's `problems`.
QFuture<Result<Inspected>> openSpecAsync(const QString &spec, const QByteArray &nameCharset = {});

} // namespace asc::ui
