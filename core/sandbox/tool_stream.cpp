// SPDX-License-Identifier: MIT
#include "tool_stream.h"

#include <QtEndian>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

namespace asc {

ToolStream::ToolStream(int fd, QString what)
    : fd_(fd),
      what_(std::move(what))
{
}

ToolStream::~ToolStream()
{
    if (fd_ >= 0)
        ::close(fd_); // a jail still writing gets EPIPE and stops its tool
}

Result<void> ToolStream::readExact(char *p, size_t n)
{
    while (n > 0) {
        const ssize_t got = ::read(fd_, p, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return Error::system(what_, QStringLiteral("read the tool's output"), errno);
        if (got == 0)
            return Error::make(ErrorKind::Format, what_, QStringLiteral("the tool's jail ended without saying how the tool ended"));
        p += got;
        n -= size_t(got);
    }
    return {};
}

Result<size_t> ToolStream::read(std::span<char> out)
{
    while (!ended_ && left_ == 0) {
        char header[4];
        if (auto got = readExact(header, 4); !got)
            return std::move(got).error();
        left_ = qFromLittleEndian<uint32_t>(header);
        if (left_ > kToolFrameBytes)
            return Error::make(ErrorKind::Format, what_, QStringLiteral("the tool's jail sent a frame of %1 bytes").arg(left_));
        if (left_ == 0) {
            char end[8];
            if (auto got = readExact(end, 8); !got)
                return std::move(got).error();
            status_ = qFromLittleEndian<int32_t>(end);
            const uint32_t n = std::min(qFromLittleEndian<uint32_t>(end + 4), kToolStderrBytes);
            messages_.resize(n);
            if (auto got = readExact(messages_.data(), n); !got)
                return std::move(got).error();
            ended_ = true;
        }
    }
    if (ended_ || out.empty())
        return size_t(0);
    const size_t n = std::min<size_t>(out.size(), left_);
    if (auto got = readExact(out.data(), n); !got)
        return std::move(got).error();
    left_ -= uint32_t(n);
    return n;
}

bool ToolStream::succeeded() const
{
    return ended_ && WIFEXITED(status_) && WEXITSTATUS(status_) == 0;
}

QString ToolStream::howItEnded() const
{
    // Its last line that says something: what 7-Zip and unar print last is the error.
    QString said;
    for (const QByteArray &line : messages_.split('\n')) {
        const QByteArray trimmed = line.trimmed();
        if (!trimmed.isEmpty())
            said = QString::fromUtf8(trimmed);
    }
    if (WIFSIGNALED(status_)) {
        const int sig = WTERMSIG(status_);
        if (sig == SIGXCPU || sig == SIGKILL)
            return QStringLiteral("stopped at its CPU time limit (signal %1)").arg(sig);
        return QStringLiteral("killed by signal %1 (%2)").arg(sig).arg(QString::fromLatin1(::strsignal(sig)));
    }
    const QString status = QStringLiteral("exit status %1").arg(WIFEXITED(status_) ? WEXITSTATUS(status_) : -1);
    return said.isEmpty() ? status : status + QStringLiteral(": ") + said;
}

} // namespace asc
