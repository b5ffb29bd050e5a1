// SPDX-License-Identifier: MIT
#pragma once
// What every CLI command shares: exit codes, error lines, stdout writing.

#include "io/result.h"

#include <QString>
#include <QStringList>

namespace asc::cli {

enum ExitCode { Success = 0,
                Failure = 1,
                UsageError = 2 };

// "archivescope-cli: SPEC: [offset N: ]what is wrong" on stderr; returns Failure.
int fail(const QString &spec, const Error &error);
// "archivescope-cli: what is wrong" on stderr, then a hint to --help; returns UsageError.
int usage(const QString &message);
void printLine(const QString &text);
// Prints a problem that does not stop the command, once per distinct line, and counts it.
void reportProblemLine(const Error &problem);
int problemsReported();
// Writes all bytes to stdout; false on EPIPE (the reader went away: stop quietly).
Result<bool> writeStdout(const char *data, size_t size);

} // namespace asc::cli
