// SPDX-License-Identifier: MIT
#pragma once
// Extracting onto a name that already exists, or that another file of the same extraction took,
// asks the user — overwrite, skip, keep both, with "apply to all" — as Ark and 7-Zip do. The extraction runs on a worker; the question is shown
// on the UI thread while only that worker waits.

#include "vfs/extraction.h"

#include <QPointer>
#include <QWidget>
#include <atomic>
#include <memory>

namespace asc::ui {

// The ExtractOptions::ask for extractions started from `parent`. While waiting for the answer
// the worker checks `stop` (set when the extraction is cancelled or the window goes away) and
// then answers Refuse, so a window can always wait for its extraction to end.
std::function<ExistingPolicy(const ExtractConflict &, bool *)> conflictQuestion(QPointer<QWidget> parent,
                                                                                std::shared_ptr<std::atomic_bool> stop);

} // namespace asc::ui
