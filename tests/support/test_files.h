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
// Text of at least `size` bytes from a small vocabulary with numbers (about 3:1 for gzip, in
// many deflate blocks), the same for the same seed.
QByteArray seededWords(qsizetype size, quint32 seed);
// Writes `bytes` to dir/name and returns the path.
QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes);

// What an archivescope-cli run did, as the kernel counted it (ARCHIVESCOPE_WORK_FILE): -1 when
// the program was not ours or did not get to the end of its command.
struct Work {
    qint64 rchar = -1; // bytes through read calls
    qint64 syscr = -1; // read calls
    qint64 wchar = -1; // bytes through write calls (cat's output)
    qint64 maxrssKib = -1; // peak resident memory
};

struct RunResult {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    Work work;
};
// Runs a program to completion (fails the test after `timeoutMs`).
RunResult run(const QString &program, const QStringList &args, int timeoutMs = 120000,
              const QString &workingDir = {});
RunResult runCli(const QStringList &args, int timeoutMs = 120000);
// runCli with ARCHIVESCOPE_PASSWORD set to `password` for that run.
RunResult runCliWithPassword(const QStringList &args, const QByteArray &password);
// archivescope-cli ARGS with a pty as its terminal, answering each password question with the
// next of `answers` (lines); what the terminal showed is `out`. Needs python3.
RunResult runCliOnTerminal(const QStringList &args, const QList<QByteArray> &answers);
// The lines of `path` once it has `count` of them (a child writing its pid), waiting up to 30 s
// with the event loop running; what it has then, if fewer.
QStringList waitForLines(const QString &path, int count);
// /proc/PID/stat while the process exists (a zombie included); empty once it is reaped.
QByteArray processStat(const QString &pid);
// Whether `dir` is a mount point now (its device differs from its parent's).
bool isMountPoint(const QString &dir);
// Whether a tool is installed (tests that need peers skip with a message when not).
bool haveTool(const QString &name);
// The first child process of `pid` (its worker), waiting up to 10 s for one to appear; 0 if none.
qint64 firstChildOf(qint64 pid);
// ARCHIVESCOPE_ALLOW_MISSING_TOOLS=1: a developer's machine may skip tests whose tools are missing.
bool missingToolsAllowed();

// A tool the tests use (scripts/setup.sh installs it). Missing, the test fails: in CI a missing
// tool is a broken setup, never a silent skip. With ARCHIVESCOPE_ALLOW_MISSING_TOOLS=1 it skips.
#define ASC_REQUIRE_TOOL(name)                                                                                                 \
    do {                                                                                                                       \
        const QString ascTool = (name);                                                                                        \
        if (!asc::test::haveTool(ascTool)) {                                                                                   \
            const QByteArray ascWhy = (ascTool + QStringLiteral(" is not installed (scripts/setup.sh installs it)")).toUtf8(); \
            if (asc::test::missingToolsAllowed())                                                                              \
                QSKIP(ascWhy.constData());                                                                                     \
            QFAIL(ascWhy.constData());                                                                                         \
        }                                                                                                                      \
    } while (false)
// Flips one byte at `at` of the file (xor 0x55): damage for a checksum to find. False on an I/O failure.
bool flipByte(const QString &path, qint64 at);
// flipByte at `distance` bytes past the first occurrence of `marker` in the file (a member's name).
bool flipByteAfter(const QString &path, const QByteArray &marker, qint64 distance);
QByteArray sha256(const QByteArray &bytes);
QByteArray sha256File(const QString &path);

} // namespace asc::test
