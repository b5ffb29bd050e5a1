// SPDX-License-Identifier: MIT
#pragma once
// Opening a SPEC off the UI thread through the facade (open/inspection.h): what it is, its first
// 64 KiB for the hex view, a disk image's map, and its container to list. By default the file
// is parsed in a worker process of its own (remote/): what comes back are its values and
// handles to its containers, and a parser that crashes, loops or eats memory ends the worker,
// not the window.

#include "open/inspection.h"
#include "remote/worker_channel.h"

#include <QFuture>

namespace asc::ui {

inline constexpr size_t kHeadBytes = 64 * 1024;

struct SandboxChoice {
    bool enabled = true; // false: parse in this process (--no-sandbox, for debugging)
    WorkerSettings worker;
    int promptSeconds = 30; // "still reading… Stop?" after this long without progress
};
// The application's choice (set from the command line before the first window opens).
SandboxChoice &sandbox();

// Legacy names are decoded from `nameCharset` (empty: as stored), for this file and what it holds.
// Problems reported on the way are in the inspection's `problems`. The worker is started here, on
// the calling thread (the UI thread: a worker dies with the thread that started it), and handed
// to `worker` (null with the sandbox off); a worker that cannot start is the future's error.
QFuture<Result<Inspected>> openSpecAsync(const QString &spec, const QByteArray &nameCharset = {}, WorkerPtr *worker = nullptr);

} // namespace asc::ui
