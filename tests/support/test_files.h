// SPDX-License-Identifier: MIT
#pragma once
// Test inputs made at test time: seeded random files, sparse files, and running our CLI.

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

namespace asc::test {

QByteArray seededBytes(qsizetype size, quint32 seed);
// Writes `bytes` to dir/name and returns the path.
QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes);

struct RunResult {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};
// Runs a program to completion (fails the test after `timeoutMs`).
RunResult run(const QString &program, const QStringList &args, int timeoutMs = 120000,
              const QString &workingDir = {});
RunResult runCli(const QStringList &args, int timeoutMs = 120000);
// Whether a tool is installed (tests that need peers skip with a message when not).
bool haveTool(const QString &name);
QByteArray sha256(const QByteArray &bytes);
QByteArray sha256File(const QString &path);

} // namespace asc::test
