// SPDX-License-Identifier: MIT
#pragma once
// For bench/: opens a file in a window and measures what a user waits for: time until the first
// 1000 rows are in the tree, time until the whole tree is listed, resident memory per entry, the
// longest time the event loop did not run (max_ui_stall_ms), and with a filter text, typed once
// the listing is complete, the time to its first match and until its search of everything ends.

#include <QObject>
#include <QString>

namespace asc::ui {

// Runs the event loop until done; prints one JSON object to stdout. Returns the exit code.
int measureOpen(const QString &spec, const QString &filter = {});

} // namespace asc::ui
