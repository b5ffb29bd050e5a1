// SPDX-License-Identifier: MIT
#pragma once
// One function per subcommand; each parses its own arguments (args[0] is the command name).

#include "io/lockdown.h"

#include <QStringList>
#include <functional>

namespace asc::cli {

int runFormats(const QStringList &args);
int runStrategies(const QStringList &args);
int runCat(const QStringList &args);
int runLs(const QStringList &args);
int runInfo(const QStringList &args);
int runExtract(const QStringList &args);
int runBench(const QStringList &args);
int runCompare(const QStringList &args);
int runChart(const QStringList &args);
int runMap(const QStringList &args);
int runPxarCreate(const QStringList &args);
int runWriteBench(const QStringList &args);
int runMimeType(const QStringList &args);
// The GUI's worker process (open/worker): locks down with `limits`, serves its socket.
int runWorker(const QStringList &args, LockdownLimits limits);
// Runs `dispatch` on the command after `--` with the I/O trace on.
int runTrace(const QStringList &args, const std::function<int(const QStringList &)> &dispatch);

} // namespace asc::cli
