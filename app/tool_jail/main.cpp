// SPDX-License-Identifier: MIT
// archivescope-tool-jail: runs one external decoder (7-Zip's 7zz) for ArchiveScope under the
// worker's rules, and frames what it says (sandbox/tool_stream.h). Not for people; sandbox/tool_run
// starts it as
//   archivescope-tool-jail --memory BYTES --cpu SECONDS [--read PATH]... -- PROGRAM ARG...
// The tool gets this program's stdin (its password, if any), a new session (no terminal to ask
// on), its own stdout and stderr pipes, and before it starts: Landlock (read only the PATHs and the
// system's libraries, execute only PROGRAM, write nothing, no TCP, no signals out), the lockdown of
// sandbox/lockdown.h with execve allowed (no new processes, sockets, or files opened for writing),
// RLIMIT_AS, RLIMIT_CPU, no file bigger than 0 bytes, no core. This program relays the tool's
// stdout as frames, keeps the start of its stderr, waits for it and writes how it ended. When
// its reader goes (EPIPE) the tool is killed.

#include "sandbox/fd_io.h"
#include "sandbox/landlock.h"
#include "sandbox/lockdown.h"
#include "sandbox/tool_stream.h"

#include <QByteArray>
#include <QFile>
#include <QList>
#include <QtEndian>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <elf.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

struct Options {
    uint64_t memory = 0;
    uint64_t cpu = 0;
    QList<QByteArray> readable;
    std::vector<char *> command; // PROGRAM ARG... nullptr
};

bool parse(int argc, char **argv, Options &options)
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "--" && i + 1 < argc) {
            for (int j = i + 1; j < argc; ++j)
                options.command.push_back(argv[j]);
            options.command.push_back(nullptr);
            return options.memory > 0 && options.cpu > 0;
        }
        if (i + 1 >= argc)
            return false;
        const QByteArray value(argv[++i]);
        if (arg == "--memory")
            options.memory = value.toULongLong();
        else if (arg == "--cpu")
            options.cpu = value.toULongLong();
        else if (arg == "--read")
            options.readable << value;
        else
            return false;
    }
    return false;
}

// In the child: a failure is said on stderr (which the parent relays) and ends it with 126.
[[noreturn]] void fail(const QByteArray &what)
{
    const QByteArray line = "archivescope-tool-jail: " + what + '\n';
    asc::writeAll(2, line.constData(), size_t(line.size()));
    ::_exit(126);
}

// A dynamically linked program's loader (PT_INTERP): executed by the kernel beside it, so Landlock
// has to let it run too. Empty for a static program or what this cannot read.
QByteArray interpreterOf(const char *program)
{
    QFile file(QFile::decodeName(program));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray head = file.read(64 * 1024);
    Elf64_Ehdr header;
    if (size_t(head.size()) < sizeof header)
        return {};
    std::memcpy(&header, head.constData(), sizeof header);
    if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64)
        return {};
    for (int i = 0; i < header.e_phnum; ++i) {
        Elf64_Phdr segment;
        const uint64_t at = header.e_phoff + uint64_t(i) * header.e_phentsize;
        if (at + sizeof segment > uint64_t(head.size()))
            return {};
        std::memcpy(&segment, head.constData() + at, sizeof segment);
        if (segment.p_type != PT_INTERP)
            continue;
        if (!file.seek(qint64(segment.p_offset)) || segment.p_filesz > 4096)
            return {};
        QByteArray path = file.read(qint64(segment.p_filesz));
        return path.left(path.indexOf('\0'));
    }
    return {};
}

// In the child: everything that confines the tool, then the tool.
[[noreturn]] void confineAndStart(const Options &options)
{
    ::setsid(); // no controlling terminal: the password is read from stdin, never asked for
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    ::syscall(SYS_close_range, 3u, ~0u, 0u);
    const rlimit cpu{rlim_t(options.cpu), rlim_t(options.cpu)};
    const rlimit nothing{0, 0};
    if (::setrlimit(RLIMIT_CPU, &cpu) != 0 || ::setrlimit(RLIMIT_FSIZE, &nothing) != 0 || ::setrlimit(RLIMIT_CORE, &nothing) != 0)
        fail("setrlimit: " + QByteArray(std::strerror(errno)));
    ::setenv("LC_ALL", "C.UTF-8", 1); // names in UTF-8 whatever the caller's locale
    ::setenv("TZ", "UTC", 1); // times listed as they are stored
    ::unsetenv("LD_PRELOAD");

    asc::LandlockPaths paths;
    paths.readable = options.readable;
    // What a dynamically linked program needs to start and to know the machine.
    paths.readable << "/usr"
                   << "/lib"
                   << "/lib64"
                   << "/etc/ld.so.cache"
                   << "/etc/localtime"
                   << "/dev/null"
                   << "/dev/urandom"
                   << "/sys/devices/system/cpu"
                   << "/proc/self"
                   << "/proc/cpuinfo"
                   << "/proc/meminfo";
    // /proc/self resolves to this process: the same after exec.
    paths.readable << "/proc/" + QByteArray::number(::getpid());
    paths.executable << QByteArray(options.command.front());
    if (const QByteArray loader = interpreterOf(options.command.front()); !loader.isEmpty())
        paths.executable << loader;
    auto restricted = asc::restrictFilesystem(paths);
    if (!restricted)
        fail("Landlock: " + restricted.error().toString().toUtf8());
    asc::LockdownLimits limits;
    limits.memoryBytes = options.memory;
    limits.maxOpenFiles = 64;
    limits.mayOpenFiles = true; // read-only; Landlock says which
    limits.mayExecute = true;
    if (auto locked = asc::lockDown(limits); !locked)
        fail("lockdown: " + locked.error().toString().toUtf8());
    ::execv(options.command.front(), options.command.data());
    fail("cannot start " + QByteArray(options.command.front()) + ": " + QByteArray(std::strerror(errno)));
}

bool writeFrame(const char *data, uint32_t n)
{
    char header[4];
    qToLittleEndian(n, header);
    return asc::writeAll(1, header, 4) && (n == 0 || asc::writeAll(1, data, n));
}

} // namespace

int main(int argc, char **argv)
{
    Options options;
    if (!parse(argc, argv, options)) {
        std::fputs("archivescope-tool-jail: started by ArchiveScope to run an external decoder; not for use by hand\n"
                   "usage: archivescope-tool-jail --memory BYTES --cpu SECONDS [--read PATH]... -- PROGRAM ARG...\n",
                   stderr);
        return 2;
    }
    ::signal(SIGPIPE, SIG_IGN);
    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
        return 1;
    const pid_t child = ::fork();
    if (child < 0)
        return 1;
    if (child == 0) {
        ::dup2(out[1], 1);
        ::dup2(err[1], 2);
        confineAndStart(options);
    }
    ::close(out[1]);
    ::close(err[1]);
    ::close(0);

    std::vector<char> buffer(asc::kToolFrameBytes);
    QByteArray messages;
    pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    int open = 2;
    bool readerGone = false;
    while (open > 0 && !readerGone) {
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (pollfd &p : fds) {
            if (p.fd < 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const ssize_t got = ::read(p.fd, buffer.data(), buffer.size());
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0) {
                ::close(p.fd);
                p.fd = -1;
                --open;
                continue;
            }
            if (p.fd == out[0]) {
                if (!writeFrame(buffer.data(), uint32_t(got)))
                    readerGone = true;
            } else if (messages.size() < qsizetype(asc::kToolStderrBytes)) {
                messages.append(buffer.data(), std::min<qsizetype>(got, asc::kToolStderrBytes - messages.size()));
            }
        }
    }
    if (readerGone)
        ::kill(child, SIGKILL);
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (readerGone)
        return 0;
    char end[8];
    qToLittleEndian(int32_t(status), end);
    qToLittleEndian(uint32_t(messages.size()), end + 4);
    const bool sent = writeFrame(nullptr, 0) && asc::writeAll(1, end, 8) && asc::writeAll(1, messages.constData(), size_t(messages.size()));
    return sent ? 0 : 1;
}
