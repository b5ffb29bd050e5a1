// SPDX-License-Identifier: MIT
#include "command_run.h"

#include "io/file_source.h"

#include <QFile>
#include <csignal>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace asc {

namespace {

// Writes the target's bytes into a pipe until they end, the reader closes its end, or the run
// is stopped. SIGPIPE is blocked on this thread: a reader that stops early gives EPIPE.
class StdinFeeder {
public:
    StdinFeeder(SourcePtr source, int fd, const CancelFlag &cancel)
        : thread_([source = std::move(source), fd, cancel] {
              sigset_t pipe;
              sigemptyset(&pipe);
              sigaddset(&pipe, SIGPIPE);
              pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
              std::vector<char> buffer(1 << 20);
              for (uint64_t at = 0; at < source->size() && !cancel.isCancelled();) {
                  auto n = source->readAt(at, std::span<char>(buffer.data(), size_t(std::min<uint64_t>(buffer.size(), source->size() - at))));
                  if (!n || *n == 0)
                      break;
                  for (size_t done = 0; done < *n;) {
                      const ssize_t w = ::write(fd, buffer.data() + done, *n - done);
                      if (w < 0 && errno == EINTR)
                          continue;
                      if (w <= 0) {
                          at = source->size();
                          break;
                      }
                      done += size_t(w);
                  }
                  at += *n;
              }
              ::close(fd);
          })
    {
    }
    ~StdinFeeder() { thread_.join(); }

private:
    std::thread thread_;
};

} // namespace

Result<void> checkCommandTarget(const CommandTemplate &command, const ReadTarget &target)
{
    if (command.usesFile && target.filePath.isEmpty())
        return Error::make(ErrorKind::Usage, target.spec,
                           QStringLiteral("--command %1: %2 is inside a container, so it has no {file}; use {stdin}").arg(command.name, target.spec));
    return {};
}

Result<CommandRun> runCommand(const CommandTemplate &command, const ReadTarget &target, uint64_t buffer, bool traceTargetReads,
                              const CancelFlag &cancel)
{
    CommandRun run;
    run.command = command.expandedText(target.filePath, buffer);
    const QString label = QStringLiteral("command %1 (%2)").arg(command.name, run.command);
    if (auto usable = checkCommandTarget(command, target); !usable)
        return std::move(usable).error();
    ProcessTreeRequest request;
    request.argv = command.expand(target.filePath, buffer);
    if (!command.shell)
        request.argv[0] = findProgram(request.argv[0]);
    request.label = label;
    request.traceTargetReads = traceTargetReads;

    // The target as the kernel names it, so a traced run knows which reads are on it.
    int stdinFd = -1, feedFd = -1;
    struct stat st {};
    if (command.usesStdin && !target.filePath.isEmpty()) {
        stdinFd = openReadOnly(QFile::encodeName(target.filePath));
        if (stdinFd < 0 || ::fstat(stdinFd, &st) != 0)
            return Error::system(target.filePath, QStringLiteral("open"), errno);
    } else if (command.usesStdin) {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0 || ::fstat(fds[0], &st) != 0)
            return Error::system(label, QStringLiteral("pipe"), errno);
        stdinFd = fds[0];
        feedFd = fds[1];
    } else if (::stat(QFile::encodeName(target.filePath).constData(), &st) != 0) {
        return Error::system(target.filePath, QStringLiteral("stat"), errno);
    }
    request.stdinFd = stdinFd;
    request.feedFd = feedFd;
    request.targetDevice = st.st_dev;
    request.targetInode = st.st_ino;

    Result<ProcessTreeMeasurement> measured = Error::cancelled();
    {
        std::optional<StdinFeeder> feeder;
        CancelFlag feederStop = cancel;
        if (feedFd >= 0)
            feeder.emplace(target.source, feedFd, feederStop);
        measured = measureProcessTree(request, cancel);
        if (stdinFd >= 0)
            ::close(stdinFd);
        // The command is gone: a feeder still writing gets EPIPE (no reader is left) and ends.
    }
    if (!measured)
        return std::move(measured).error();
    if (auto succeeded = requireSuccess(*measured, label); !succeeded)
        return std::move(succeeded).error();
    run.tree = std::move(*measured);
    return run;
}

} // namespace asc
