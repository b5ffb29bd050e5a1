#include "cli_output.h"

#include <cerrno>
#include <cstdio>
#include <unistd.h>

namespace asc::cli {

int fail(const QString &spec, const Error &error)
{
    const QString where = error.file.isEmpty() ? spec : error.file;
    const QString line = QStringLiteral("archivescope-cli: ") + (where.isEmpty() ? QString() : where + QStringLiteral(": ")) + error.withoutFile();
    std::fprintf(stderr, "%s\n", line.toLocal8Bit().constData());
    return Failure;
}

int usage(const QString &message)
{
    std::fprintf(stderr, "archivescope-cli: %s\nTry 'archivescope-cli --help'.\n", message.toLocal8Bit().constData());
    return UsageError;
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
