// SPDX-License-Identifier: MIT
#pragma once
// One function per subcommand; each parses its own arguments (args[0] is the command name).

#include <QCommandLineOption>
#include <QStringList>
#include <functional>

namespace asc::cli {

int runFormats(const QStringList &args);
int runStrategies(const QStringList &args);
int runCat(const QStringList &args);
int runLs(const QStringList &args);
int runIndex(const QStringList &args);
int runInfo(const QStringList &args);
int runExtract(const QStringList &args);
int runHash(const QStringList &args);
int runGrep(const QStringList &args);
int runTest(const QStringList &args);
int runBench(const QStringList &args);
// bench's options, declared once: its parser and the worker's file grants read them.
QList<QCommandLineOption> benchOptions();
// Whether `bench ARGS` starts programs of the user's (--command, --prepare): then it runs in this
// process, as the worker's lockdown cannot start programs.
bool benchStartsPrograms(const QStringList &args);
int runCompare(const QStringList &args);
int runChart(const QStringList &args); // in archivescope-chart
int runChartProgram(const QStringList &args); // runs archivescope-chart in this process's place
int runMap(const QStringList &args);
int runPxarCreate(const QStringList &args);
int runWriteBench(const QStringList &args);
int runMimeType(const QStringList &args);
int runMount(const QStringList &args);
// Runs `dispatch` on the command after `--` with the I/O trace on.
int runTrace(const QStringList &args, const std::function<int(const QStringList &)> &dispatch);

} // namespace asc::cli
