// SPDX-License-Identifier: MIT
#pragma once
// For bench/: opens a file in a window and measures what a user waits for: time until the first
// 1000 rows are in the tree, time until the whole tree is listed, and resident memory per entry.

#include <QObject>
#include <QString>

namespace asc::ui {

// Runs the event loop until done; prints one JSON object to stdout. Returns the exit code.
int measureOpen(const QString &spec);

} // namespace asc::ui
