// SPDX-License-Identifier: MIT
#pragma once
// The commands that parse a file (command_table.h: RunsIn::Worker) run in a locked-down worker
// process (sandbox/worker_process.h) unless --no-sandbox: a crash, a memory blow-up or an endless
// loop in a parser ends the worker, and the CLI says what happened and exits 1. Global options,
// anywhere on the line:
//   --no-sandbox          parse in this process (for debugging)
//   --memory-limit SIZE   the worker's address-space limit (default 2G)
//   --time-limit SECONDS  kill a worker that works this long without reading or writing a
//                         byte (default 30; 0: never)

#include "sandbox/worker_process.h"

#include <QStringList>
#include <optional>

namespace asc::cli {

struct WorkerOptions {
    bool sandbox = true;
    WorkerLimits limits;
};

// Takes the global options out of `args`; a usage error's message when one is malformed.
std::optional<QString> takeWorkerOptions(QStringList &args, WorkerOptions &options);
// The options the command line gave (for commands that talk to a worker themselves: extract).
const WorkerOptions &workerOptions();
// Runs `work` (the command `args` names) in a locked-down worker that opens no file itself: this
// process answers its requests for the files on the command line and what lies beside them,
// and writes `exports`
// (a trace's file) when the worker asks.
WorkerEnd runParsingWorker(const QStringList &args, const WorkerLimits &limits, const std::function<int()> &work,
                           const QStringList &exports = {});
// The exit status for how the worker ended, with a line on stderr naming `spec` and the cause
// when it did not end by itself.
int workerStatus(const WorkerEnd &end, const QString &spec, const WorkerLimits &limits);

} // namespace asc::cli
