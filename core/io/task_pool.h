// SPDX-License-Identifier: MIT
#pragma once
// The threads long work runs on: opening, listing, nested opens, previews, extraction,
// benchmarks. Never Qt's global pool: Qt's own raster painting waits for that pool's threads,
// so a window whose tasks sat there (each waiting on the worker for a nested open) could not
// repaint for minutes. Tasks here mostly wait on the worker process or the disk, so the pool
// has more threads than cores.

#include <QThreadPool>

namespace asc {

QThreadPool *taskPool();

} // namespace asc
