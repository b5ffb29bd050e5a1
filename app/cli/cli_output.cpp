// SPDX-License-Identifier: MIT
#include "cli_output.h"

#include "io/byte_text.h"

#include <QSet>
#include <cerrno>
#include <cstdio>
#include <unistd.h>

namespace asc::cli {

int fail(const QString &spec, const Error &error)
{
    const QString where = error.file.isEmpty() ? spec : error.file;
    const QString line = QStringLiteral("archivescope-cli: ") + (where.isEmpty() ? QString() : where + QStringLiteral(": ")) + error.withoutFile();
    std::fprintf(stderr, "%s\n", escapeForTerminal(line).constData());
    return Failure;
}

int usage(const QString &message)
{
    std::fprintf(stderr, "archivescope-cli: %s\nTry 'archivescope-cli --help'.\n", escapeForTerminal(message).constData());
    return UsageError;
}

static QSet<QString> &printedProblems()
{
    static QSet<QString> printed;
    return printed;
}

void reportProblemLine(const Error &problem)
{
    // Called under the problem handler's lock (vfs/problems.cpp).
    const QString line = QStringLiteral("archivescope-cli: ") + problem.toString();
    if (printedProblems().contains(line))
        return;
    printedProblems().insert(line);
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", escapeForTerminal(line).constData());
}

int problemsReported()
{
    return int(printedProblems().size());
}

void printLine(const QString &text)
{
    const QByteArray bytes = text.toUtf8() + '\n';
    (void)writeStdout(bytes.constData(), size_t(bytes.size()));
}

Result<bool> writeStdout(const char *data, size_t size)
{
    std::fflush(stdout);
    while (size > 0) {
        const ssize_t n = ::write(STDOUT_FILENO, data, size);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EPIPE)
                return false;
            return Error::system(QStringLiteral("<stdout>"), QStringLiteral("write"), errno);
        }
        data += n;
        size -= size_t(n);
    }
    return true;
}

} // namespace asc::cli
