// SPDX-License-Identifier: MIT
#include "process_tree.h"

#include <QFile>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <ctime>
#include <fcntl.h>
#include <map>
#include <set>
#include <poll.h>
#include <seccomp.h>
#include <string>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

namespace asc {

namespace {

// What the measuring process sends back on its pipe: fixed-size frames, read-call records as
// they are made, then one summary.
struct ReadFrame {
    uint64_t offset, request, length;
    int64_t tNs;
    int32_t pid;
    uint8_t call;
};
struct EndFrame {
    double seconds, user, sys;
    uint64_t maxRssBytes;
    ProcIo io;
    int32_t tasks, exitStatus, execErrno, setupErrno;
    uint8_t mapsTarget, usesIoUring;
    char setupStep[48];
};
struct Frame {
    char kind; // 'R' or 'E'
    ReadFrame read;
    EndFrame end;
};

const char *const callNames[] = {"read", "pread64", "readv", "preadv", "preadv2", "sendfile", "splice", "copy_file_range", "mmap", "io_uring_setup"};
const long tracedCalls[] = {SYS_read, SYS_pread64, SYS_readv, SYS_preadv, SYS_preadv2, SYS_sendfile, SYS_splice, SYS_copy_file_range, SYS_mmap, SYS_io_uring_setup};
constexpr int callCount = int(sizeof tracedCalls / sizeof tracedCalls[0]);

int callIndex(uint64_t nr)
{
    for (int i = 0; i < callCount; ++i)
        if (uint64_t(tracedCalls[i]) == nr)
            return i;
    return -1;
}

int64_t nsSince(const timespec &start)
{
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return int64_t(now.tv_sec - start.tv_sec) * 1000000000 + (now.tv_nsec - start.tv_nsec);
}

// Everything the measuring process needs, prepared before it is forked (the window's process
// has threads: after fork only the forking thread exists).
struct Setup {
    std::vector<std::string> argv;
    int stdinFd = -1;
    int feedFd = -1;
    int devNull = -1;
    int stderrFd = -1; // a memfd the command's standard error goes to
    bool trace = false;
    dev_t targetDevice = 0;
    ino_t targetInode = 0;
    pid_t parent = 0;
};

// Writes frames in batches: a traced run makes one per read call.
class FrameWriter {
public:
    explicit FrameWriter(int fd)
        : fd_(fd) {}
    void put(const Frame &f)
    {
        if (gone_)
            return;
        if (used_ + sizeof f > sizeof buffer_)
            flush();
        std::memcpy(buffer_ + used_, &f, sizeof f);
        used_ += sizeof f;
    }
    void flush()
    {
        size_t done = 0;
        while (done < used_) {
            const ssize_t n = ::write(fd_, buffer_ + done, used_ - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                gone_ = true; // the reader is gone (a stop): the tree is still ended and reaped
                break;
            }
            done += size_t(n);
        }
        used_ = 0;
    }

private:
    int fd_;
    char buffer_[64 * 1024];
    size_t used_ = 0;
    bool gone_ = false;
};

[[noreturn]] void execCommand(const Setup &s, int errorPipe)
{
    ::dup2(s.stdinFd >= 0 ? s.stdinFd : s.devNull, 0);
    ::dup2(s.devNull, 1);
    ::dup2(s.stderrFd, 2);
    // What the caller set for itself is not the command's: default signals, nothing blocked.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGCHLD})
        std::signal(sig, SIG_DFL);
    int err = 0;
    if (::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0) {
        err = errno;
        (void)!::write(errorPipe, &err, sizeof err);
        _exit(126);
    }
    ::raise(SIGSTOP); // the tracer sets its options, then continues us
    if (s.trace) {
        // Stops at the read family only; every other call runs at full speed.
        scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
        bool ok = ctx != nullptr;
        for (long nr : tracedCalls)
            ok = ok && seccomp_rule_add(ctx, SCMP_ACT_TRACE(1), int(nr), 0) == 0;
        ok = ok && ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && seccomp_load(ctx) == 0;
        if (!ok) {
            err = errno ? errno : EINVAL;
            (void)!::write(errorPipe, &err, sizeof err);
            _exit(126);
        }
    }
    std::vector<char *> argv;
    for (const std::string &word : s.argv)
        argv.push_back(const_cast<char *>(word.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    err = errno;
    (void)!::write(errorPipe, &err, sizeof err);
    _exit(127);
}

bool readTracee(pid_t pid, uint64_t address, void *out, size_t size)
{
    iovec local{out, size}, remote{reinterpret_cast<void *>(address), size};
    return ::process_vm_readv(pid, &local, 1, &remote, 1, 0) == ssize_t(size);
}

// The traced side: which calls are on the target, and what they asked and got.
class ReadTracer {
public:
    ReadTracer(const Setup &s, FrameWriter &out, const timespec &start)
        : s_(s),
          out_(out),
          start_(start) {}

    // At the seccomp stop (the call's entry): true when its exit must be seen too.
    bool enter(pid_t pid, EndFrame &end)
    {
        __ptrace_syscall_info info{};
        if (::ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof info, &info) <= 0 || info.op != PTRACE_SYSCALL_INFO_SECCOMP)
            return false;
        const int call = callIndex(info.seccomp.nr);
        const uint64_t *a = info.seccomp.args;
        if (call < 0)
            return false;
        if (tracedCalls[call] == SYS_io_uring_setup) {
            end.usesIoUring = 1;
            return false;
        }
        // The descriptor read from, the offset argument (a pointer for three calls), the request.
        int fd = int(a[0]);
        int64_t offset = -1;
        uint64_t request = a[2];
        switch (tracedCalls[call]) {
        case SYS_pread64:
            offset = int64_t(a[3]);
            break;
        case SYS_readv:
        case SYS_preadv:
        case SYS_preadv2:
            request = iovecBytes(pid, a[1], a[2]);
            if (tracedCalls[call] != SYS_readv)
                offset = int64_t(a[3]);
            break;
        case SYS_sendfile: // (out, in, *offset, count)
            fd = int(a[1]);
            offset = pointedOffset(pid, a[2]);
            request = a[3];
            break;
        case SYS_splice: // (in, *off_in, out, *off_out, len, flags)
        case SYS_copy_file_range:
            offset = pointedOffset(pid, a[1]);
            request = a[4];
            break;
        case SYS_mmap: // (addr, length, prot, flags, fd, offset)
            if (isTarget(pid, int(a[4])))
                end.mapsTarget = 1;
            return false;
        default:
            break;
        }
        bool seekable = true;
        if (!isTarget(pid, fd, &seekable))
            return false;
        Pending p;
        p.call = uint8_t(call);
        p.request = request;
        p.offset = offset >= 0 ? uint64_t(offset) : seekable ? filePosition(pid, fd)
                                                             : streamed_;
        p.seekable = seekable;
        pending_[pid] = p;
        return true;
    }

    // At the call's exit stop.
    void leave(pid_t pid)
    {
        const auto it = pending_.find(pid);
        if (it == pending_.end())
            return;
        const Pending p = it->second;
        pending_.erase(it);
        __ptrace_syscall_info info{};
        if (::ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof info, &info) <= 0 || info.op != PTRACE_SYSCALL_INFO_EXIT)
            return;
        Frame f{};
        f.kind = 'R';
        f.read.offset = p.offset;
        f.read.request = p.request;
        f.read.length = info.exit.is_error || info.exit.rval < 0 ? 0 : uint64_t(info.exit.rval);
        f.read.tNs = nsSince(start_);
        f.read.pid = pid;
        f.read.call = p.call;
        if (!p.seekable)
            streamed_ += f.read.length;
        out_.put(f);
    }

    void forget(pid_t pid) { pending_.erase(pid); }

private:
    struct Pending {
        uint8_t call = 0;
        uint64_t request = 0, offset = 0;
        bool seekable = true;
    };

    bool isTarget(pid_t pid, int fd, bool *seekable = nullptr) const
    {
        char path[64];
        std::snprintf(path, sizeof path, "/proc/%d/fd/%d", int(pid), fd);
        struct stat st {};
        if (fd < 0 || ::stat(path, &st) != 0 || st.st_dev != s_.targetDevice || st.st_ino != s_.targetInode)
            return false;
        if (seekable)
            *seekable = !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode);
        return true;
    }
    uint64_t filePosition(pid_t pid, int fd) const
    {
        char path[64], text[256];
        std::snprintf(path, sizeof path, "/proc/%d/fdinfo/%d", int(pid), fd);
        const int f = ::open(path, O_RDONLY | O_CLOEXEC);
        if (f < 0)
            return 0;
        const ssize_t n = ::read(f, text, sizeof text - 1);
        ::close(f);
        if (n <= 0)
            return 0;
        text[n] = '\0';
        const char *pos = std::strstr(text, "pos:");
        return pos ? std::strtoull(pos + 4, nullptr, 10) : 0;
    }
    static int64_t pointedOffset(pid_t pid, uint64_t pointer)
    {
        int64_t value = -1;
        if (pointer == 0 || !readTracee(pid, pointer, &value, sizeof value))
            return -1;
        return value;
    }
    static uint64_t iovecBytes(pid_t pid, uint64_t address, uint64_t count)
    {
        uint64_t total = 0;
        iovec chunk[64];
        for (uint64_t done = 0; done < count && count <= 1024;) {
            const uint64_t n = std::min<uint64_t>(64, count - done);
            if (!readTracee(pid, address + done * sizeof(iovec), chunk, n * sizeof(iovec)))
                break;
            for (uint64_t i = 0; i < n; ++i)
                total += chunk[i].iov_len;
            done += n;
        }
        return total;
    }

    const Setup &s_;
    FrameWriter &out_;
    timespec start_;
    std::map<pid_t, Pending> pending_;
    uint64_t streamed_ = 0; // bytes read so far from a pipe target: its "offset"
};

// The peak RSS of a task's process, from /proc/TID/status.
void readPeakRss(pid_t tid, uint64_t *peakBytes)
{
    char path[48], text[4096];
    std::snprintf(path, sizeof path, "/proc/%d/status", int(tid));
    const int f = ::open(path, O_RDONLY | O_CLOEXEC);
    if (f < 0)
        return;
    const ssize_t n = ::read(f, text, sizeof text - 1);
    ::close(f);
    if (n <= 0)
        return;
    text[n] = '\0';
    if (const char *at = std::strstr(text, "\nVmHWM:"))
        *peakBytes = std::strtoull(at + 7, nullptr, 10) * 1024;
}

// The own counters of every thread in the process of `tid` (/proc/TID/task/*/io).
void readThreadsIo(pid_t tid, std::map<pid_t, ProcIo> &taskIo)
{
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/task", int(tid));
    DIR *dir = ::opendir(path);
    if (!dir)
        return;
    while (const dirent *e = ::readdir(dir)) {
        const pid_t thread = pid_t(std::strtol(e->d_name, nullptr, 10));
        if (thread <= 0)
            continue;
        std::snprintf(path, sizeof path, "/proc/%d/task/%d/io", int(tid), int(thread));
        const int f = ::open(path, O_RDONLY | O_CLOEXEC);
        if (f < 0)
            continue;
        if (auto io = readProcIoFile(f))
            taskIo[thread] = *io;
        ::close(f);
    }
    ::closedir(dir);
}

volatile sig_atomic_t stopRequested = 0; // in the measuring process: the caller's SIGTERM

double seconds(const timeval &tv)
{
    return double(tv.tv_sec) + double(tv.tv_usec) / 1e6;
}

[[noreturn]] void measure(const Setup &s, int out)
{
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != s.parent)
        _exit(1);
    // Orphans of the tree come to us, so every process is reaped here and its CPU time counted.
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    struct sigaction stop {};
    stop.sa_handler = [](int) { stopRequested = 1; };
    sigemptyset(&stop.sa_mask);
    stop.sa_flags = 0; // no SA_RESTART: waitpid returns EINTR and the loop kills the tree
    ::sigaction(SIGTERM, &stop, nullptr);
    std::signal(SIGPIPE, SIG_IGN); // a caller that stopped reading gives EPIPE, not death
    static FrameWriter writer(out); // 64 KiB: not on the stack
    Frame endFrame{};
    endFrame.kind = 'E';
    EndFrame &end = endFrame.end;
    auto finish = [&](const char *step, int err) {
        end.setupErrno = err;
        std::snprintf(end.setupStep, sizeof end.setupStep, "%s", step ? step : "");
        writer.put(endFrame);
        writer.flush();
        _exit(0);
    };
    int errorPipe[2];
    if (::pipe2(errorPipe, O_CLOEXEC) != 0)
        finish("pipe", errno);
    timespec start{};
    clock_gettime(CLOCK_MONOTONIC, &start);
    const pid_t command = ::fork();
    if (command < 0)
        finish("fork", errno);
    if (command == 0)
        execCommand(s, errorPipe[1]);
    ::close(errorPipe[1]);
    int status = 0;
    if (::waitpid(command, &status, __WALL) != command || !WIFSTOPPED(status)) {
        int err = 0;
        (void)!::read(errorPipe[0], &err, sizeof err);
        finish("ptrace", err ? err : EPERM);
    }
    long options = PTRACE_O_EXITKILL | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC |
                   PTRACE_O_TRACEEXIT | PTRACE_O_TRACESYSGOOD;
    if (s.trace)
        options |= PTRACE_O_TRACESECCOMP;
    if (::ptrace(PTRACE_SETOPTIONS, command, nullptr, reinterpret_cast<void *>(options)) != 0)
        finish("ptrace options", errno);
    ::ptrace(PTRACE_CONT, command, nullptr, nullptr);

    ReadTracer tracer(s, writer, start);
    std::map<pid_t, ProcIo> taskIo; // per task: its own io counters, as last read
    std::map<pid_t, bool> seen{{command, true}}; // tasks whose first stop has been seen
    std::set<pid_t> known{command}, killed; // every task of the tree, and those already killed
    for (;;) {
        // Stopped (SIGTERM from the caller): every task is killed, and reaped below, so that
        // when this process ends the whole tree is gone, not merely on its way out.
        if (stopRequested)
            for (pid_t task : known)
                if (killed.insert(task).second)
                    ::kill(task, SIGKILL);
        const pid_t pid = ::waitpid(-1, &status, __WALL);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break; // ECHILD: the whole tree is gone
        }
        known.insert(pid);
        if (WIFEXITED(status) || WIFSIGNALED(status)) {
            if (pid == command)
                end.exitStatus = status;
            tracer.forget(pid);
            continue;
        }
        if (!WIFSTOPPED(status))
            continue;
        const int sig = WSTOPSIG(status);
        const int event = int(unsigned(status) >> 16);
        int deliver = 0;
        if (event == PTRACE_EVENT_EXIT) {
            // Each task's own counters (a process's total would also hold the children it
            // reaped: counted twice). A thread killed by its process's exit_group stops no more,
            // so every thread of the process is read now; each task's last reading is its total.
            readThreadsIo(pid, taskIo);
            uint64_t peak = 0;
            readPeakRss(pid, &peak);
            end.maxRssBytes = std::max(end.maxRssBytes, peak);
            ++end.tasks;
        } else if (event == PTRACE_EVENT_SECCOMP) {
            if (tracer.enter(pid, end)) {
                ::ptrace(PTRACE_SYSCALL, pid, nullptr, nullptr);
                continue;
            }
        } else if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK || event == PTRACE_EVENT_CLONE) {
            // The new task reports its own first stop; known now, so a stop can kill it.
            unsigned long child = 0;
            if (::ptrace(PTRACE_GETEVENTMSG, pid, nullptr, &child) == 0 && child > 0)
                known.insert(pid_t(child));
        } else if (event != 0) {
            // exec
        } else if (sig == (SIGTRAP | 0x80)) {
            tracer.leave(pid);
        } else if (!seen.count(pid)) {
            seen[pid] = true; // a new task's first stop (SIGSTOP): not a signal to pass on
        } else {
            siginfo_t info{};
            // A group stop (no siginfo) is resumed; a signal is delivered as it was sent.
            if (::ptrace(PTRACE_GETSIGINFO, pid, nullptr, &info) == 0)
                deliver = sig;
        }
        ::ptrace(PTRACE_CONT, pid, nullptr, reinterpret_cast<void *>(long(deliver)));
    }
    end.seconds = double(nsSince(start)) / 1e9;
    rusage children{};
    ::getrusage(RUSAGE_CHILDREN, &children);
    end.user = seconds(children.ru_utime);
    end.sys = seconds(children.ru_stime);
    end.maxRssBytes = std::max<uint64_t>(end.maxRssBytes, uint64_t(children.ru_maxrss) * 1024);
    for (const auto &[tid, io] : taskIo) {
        end.io.rchar += io.rchar;
        end.io.wchar += io.wchar;
        end.io.syscr += io.syscr;
        end.io.syscw += io.syscw;
        end.io.readBytes += io.readBytes;
        end.io.writeBytes += io.writeBytes;
    }
    int err = 0;
    if (::read(errorPipe[0], &err, sizeof err) == sizeof err)
        end.execErrno = err;
    finish(nullptr, 0);
    _exit(0); // finish() does not return
}

QString commandStderr(int fd)
{
    const off_t size = ::lseek(fd, 0, SEEK_END);
    const off_t from = std::max<off_t>(0, size - 2048);
    QByteArray tail(int(size - from), '\0');
    if (size <= 0 || ::pread(fd, tail.data(), size_t(tail.size()), from) != ssize_t(tail.size()))
        return {};
    QStringList lines = QString::fromUtf8(tail).trimmed().split(QLatin1Char('\n'));
    while (lines.size() > 3)
        lines.removeFirst();
    return lines.join(QStringLiteral(" / "));
}

} // namespace

QString waitStatusText(int status)
{
    if (WIFEXITED(status))
        return QStringLiteral("exit status %1").arg(WEXITSTATUS(status));
    if (WIFSIGNALED(status))
        return QStringLiteral("killed by signal %1 (%2)").arg(WTERMSIG(status)).arg(QString::fromUtf8(strsignal(WTERMSIG(status))));
    return QStringLiteral("status %1").arg(status);
}

Result<void> requireSuccess(const ProcessTreeMeasurement &measured, const QString &label)
{
    const int status = measured.exitStatus;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return {};
    QString message = QStringLiteral("failed: %1").arg(waitStatusText(status));
    if (!measured.stderrTail.isEmpty())
        message += QStringLiteral(": ") + measured.stderrTail;
    return Error::make(ErrorKind::System, label, message);
}

Result<ProcessTreeMeasurement> measureProcessTree(const ProcessTreeRequest &request, const CancelFlag &cancel)
{
    const QString label = request.label.isEmpty() ? request.argv.join(QLatin1Char(' ')) : request.label;
    auto systemError = [&](const char *what) {
        return Error::make(ErrorKind::System, label, QStringLiteral("%1: %2").arg(QLatin1String(what), QString::fromUtf8(std::strerror(errno))));
    };
    if (request.argv.isEmpty())
        return Error::make(ErrorKind::Usage, label, QStringLiteral("no command"));
    Setup s;
    for (const QString &word : request.argv)
        s.argv.push_back(word.toStdString());
    s.stdinFd = request.stdinFd;
    s.feedFd = request.feedFd;
    s.trace = request.traceTargetReads;
    s.targetDevice = request.targetDevice;
    s.targetInode = request.targetInode;
    s.parent = ::getpid();
    s.devNull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    s.stderrFd = ::memfd_create("command-stderr", MFD_CLOEXEC);
    int pipeFds[2] = {-1, -1};
    auto closeAll = [&] {
        for (int fd : {s.devNull, s.stderrFd, pipeFds[0], pipeFds[1]})
            if (fd >= 0)
                ::close(fd);
    };
    if (s.devNull < 0 || s.stderrFd < 0 || ::pipe2(pipeFds, O_CLOEXEC) != 0) {
        auto e = systemError("setting up the run");
        closeAll();
        return e;
    }
    const pid_t helper = ::fork();
    if (helper < 0) {
        auto e = systemError("fork");
        closeAll();
        return e;
    }
    if (helper == 0) {
        ::close(pipeFds[0]);
        if (s.feedFd >= 0)
            ::close(s.feedFd);
        measure(s, pipeFds[1]);
    }
    ::close(pipeFds[1]);
    pipeFds[1] = -1;

    ProcessTreeMeasurement m;
    std::optional<EndFrame> end;
    QByteArray pending;
    bool cancelled = false;
    for (;;) {
        if (cancel.isCancelled()) {
            // The measuring process kills every task and reaps them all before it ends; should
            // it not within seconds, it is killed, and ptrace's exit-kill ends the tree.
            ::close(pipeFds[0]); // a writer blocked on a full pipe gets EPIPE and goes on
            pipeFds[0] = -1;
            ::kill(helper, SIGTERM);
            bool reaped = false;
            for (int i = 0; i < 500 && !reaped; ++i) {
                reaped = ::waitpid(helper, nullptr, WNOHANG) == helper;
                if (!reaped)
                    ::usleep(10000);
            }
            if (!reaped)
                ::kill(helper, SIGKILL);
            cancelled = true;
            break;
        }
        pollfd p{pipeFds[0], POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0)
            continue;
        char chunk[64 * 1024];
        const ssize_t n = ::read(pipeFds[0], chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        pending.append(chunk, n);
        qsizetype used = 0;
        for (; pending.size() - used >= qsizetype(sizeof(Frame)); used += sizeof(Frame)) {
            Frame f;
            std::memcpy(&f, pending.constData() + used, sizeof f);
            if (f.kind == 'R') {
                TargetRead r;
                r.offset = f.read.offset;
                r.request = f.read.request;
                r.length = f.read.length;
                r.tNs = f.read.tNs;
                r.pid = f.read.pid;
                r.call = callNames[std::min<int>(f.read.call, callCount - 1)];
                m.targetReads.push_back(r);
            } else if (f.kind == 'E') {
                end = f.end;
            }
        }
        pending.remove(0, used);
    }
    int helperStatus = 0;
    while (::waitpid(helper, &helperStatus, 0) < 0 && errno == EINTR) {
    }
    m.stderrTail = commandStderr(s.stderrFd);
    closeAll();
    if (cancelled)
        return Error::cancelled();
    if (!end)
        return Error::make(ErrorKind::System, label, QStringLiteral("the measuring process ended early (%1)").arg(waitStatusText(helperStatus)));
    if (end->setupErrno != 0)
        return Error::make(ErrorKind::System, label,
                           QStringLiteral("could not start it under measurement (%1: %2)").arg(QString::fromUtf8(end->setupStep), QString::fromUtf8(std::strerror(end->setupErrno))));
    if (end->execErrno != 0)
        return Error::make(ErrorKind::System, label, QStringLiteral("could not run %1: %2").arg(request.argv.first(), QString::fromUtf8(std::strerror(end->execErrno))));
    m.seconds = end->seconds;
    m.user = end->user;
    m.sys = end->sys;
    m.maxRssBytes = end->maxRssBytes;
    m.io = end->io;
    m.tasks = end->tasks;
    m.exitStatus = end->exitStatus;
    m.mapsTarget = end->mapsTarget;
    m.usesIoUring = end->usesIoUring;
    return m;
}

} // namespace asc
