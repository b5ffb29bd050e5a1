// SPDX-License-Identifier: MIT
#include "worker_process.h"

#include "sandbox/proc_io.h"
#include "sandbox/progress_watch.h"
#include "io/units.h"

#include <QFile>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <cstdio>
#include <exception>
#include <new>
#include <poll.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace asc {

namespace {

[[noreturn]] void outOfMemory()
{
    static const char message[] = "archivescope worker: out of memory at its limit\n";
    (void)!::write(STDERR_FILENO, message, sizeof message - 1);
    ::_exit(kWorkerOutOfMemory);
}

} // namespace

void readWaitStatus(WorkerEnd &end, int status)
{
    if (WIFEXITED(status)) {
        end.exitCode = WEXITSTATUS(status);
        end.outOfMemory = end.exitCode == kWorkerOutOfMemory;
        end.lockdownFailed = end.exitCode == kWorkerLockdownFailed;
    } else if (WIFSIGNALED(status)) {
        end.signal = WTERMSIG(status);
    }
}

std::optional<WorkerEndText> describeWorkerEnd(const WorkerEnd &end, uint64_t memoryLimit, int quietSeconds)
{
    if (end.stalled)
        return WorkerEndText{ErrorKind::Limit, QStringLiteral("the worker reading it was stopped after %1 s without reading or writing a byte "
                                                              "(a loop in the file's structure?)")
                                                   .arg(quietSeconds)};
    if (end.outOfMemory)
        return WorkerEndText{ErrorKind::Limit, QStringLiteral("the worker reading it ran out of memory at its limit of %1").arg(sizeLabel(memoryLimit))};
    if (end.lockdownFailed)
        return WorkerEndText{ErrorKind::System, QStringLiteral("the worker could not lock itself down, so it read nothing")};
    if (end.signal != 0)
        return WorkerEndText{ErrorKind::Format, QStringLiteral("the worker reading it crashed (signal %1: %2); nothing else was affected")
                                                    .arg(end.signal)
                                                    .arg(QString::fromLocal8Bit(::strsignal(end.signal)))};
    return std::nullopt;
}

void becomeWorker()
{
    for (int crash : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT})
        std::signal(crash, SIG_DFL);
    std::set_new_handler(&outOfMemory);
    // A worker ends with _exit(): exit() comes only from a library giving up, and libarchive
    // 3.6.2 does that when an allocation fails ("Fatal Internal Error in libarchive: No memory",
    // exit status 1: a forged RAR5 name asked for 2 TB). That is the memory limit.
    std::atexit([] { outOfMemory(); });
    // Not every failed allocation goes through operator new: Qt's containers throw bad_alloc
    // themselves, and so may a decoder thread. Uncaught, on any thread, that is the memory
    // limit, not a crash (signal 6).
    std::set_terminate([] {
        if (const std::exception_ptr current = std::current_exception()) {
            try {
                std::rethrow_exception(current);
            } catch (const std::bad_alloc &) {
                outOfMemory();
            } catch (...) {
            }
        }
        std::abort();
    });
}

WorkerEnd runInWorker(const std::function<int()> &work, const WorkerLimits &limits)
{
    std::fflush(nullptr); // nothing buffered is written twice
    const pid_t pid = ::fork();
    if (pid < 0) {
        WorkerEnd end;
        end.lockdownFailed = true;
        return end;
    }
    if (pid == 0) {
        becomeWorker();
        if (auto locked = lockDown(limits.lockdown); !locked) {
            std::fprintf(stderr, "archivescope worker: cannot lock down: %s\n", qPrintable(locked.error().toString()));
            ::_exit(kWorkerLockdownFailed);
        }
        const int status = work();
        std::fflush(nullptr);
        ::_exit(status);
    }

    // The parent: Ctrl-C reaches the child too (same process group); the child ends, we report.
    std::signal(SIGINT, SIG_IGN);
    WorkerEnd end;
    // Progress is bytes read or written; a child whose counters cannot be read counts as none.
    auto childIo = [pid] { return readProcIo(int(pid)).value_or(ProcIo{}); };
    auto ioBytes = [](const ProcIo &io) { return io.rchar + io.wchar; };
    ProgressWatch progress(limits.noProgressSeconds, std::chrono::steady_clock::now(), ioBytes(childIo()), processCpuTicks(pid));
    // A descriptor that becomes readable when the child ends: its end is seen at once, not at
    // the next check of its progress.
    const int pidfd = int(::syscall(SYS_pidfd_open, pid, 0));
    int serveFd = limits.serve ? limits.serveFd : -1;
    for (;;) {
        siginfo_t info{};
        // Wait without reaping, so the child's counters can still be read.
        if (::waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) {
            end.io = readProcIo(int(pid));
            break;
        }
        pollfd watched[2] = {{pidfd, POLLIN, 0}, {serveFd, POLLIN, 0}};
        if (pidfd >= 0 || serveFd >= 0)
            ::poll(watched, 2, pidfd >= 0 ? 100 : 20);
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (serveFd >= 0 && (watched[1].revents & (POLLIN | POLLHUP)) && !limits.serve())
            serveFd = -1; // poll ignores negative descriptors
        const ProcIo io = childIo();
        if (progress.look(std::chrono::steady_clock::now(), ioBytes(io), processCpuTicks(pid)) == ProgressWatch::Verdict::Stalled) {
            // Working without reading or writing a byte: a parser caught in a loop.
            end.stalled = true;
            end.io = io;
            ::kill(pid, SIGKILL);
        }
    }
    if (pidfd >= 0)
        ::close(pidfd);
    int status = 0;
    rusage usage{};
    while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    end.maxrssKib = usage.ru_maxrss;
    readWaitStatus(end, status);
    return end;
}

} // namespace asc
