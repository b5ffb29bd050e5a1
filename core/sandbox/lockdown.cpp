// SPDX-License-Identifier: MIT
#include "lockdown.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <linux/fs.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <termios.h>
#include <unistd.h>

namespace asc {

namespace {

struct Filter {
    scmp_filter_ctx ctx;
    ~Filter() { seccomp_release(ctx); }
};

// Collects rules and remembers the first failure; a call this kernel or architecture lacks is
// not a failure (there is nothing to allow or forbid).
struct Rules {
    scmp_filter_ctx ctx;
    int rc = 0;

    void add(uint32_t action, int syscall, std::initializer_list<scmp_arg_cmp> args = {})
    {
        if (rc != 0 || syscall < 0)
            return;
        const int added = seccomp_rule_add_array(ctx, action, syscall, unsigned(args.size()), args.begin());
        rc = added == -EFAULT || added == -EDOM ? 0 : added;
    }
    void add(uint32_t action, std::initializer_list<const char *> names)
    {
        for (const char *name : names)
            add(action, seccomp_syscall_resolve_name(name));
    }
};

// What a parser, its threads and the C library need once the input is open: memory, threads and
// their synchronisation, reading and writing descriptors already held, the worker's own socket,
// time, and io_uring on the rings it made before (restricted to reads; see sandbox/ring_pool.h).
const std::initializer_list<const char *> kAllowed = {
    // memory
    "brk", "mmap", "munmap", "mremap", "mprotect", "madvise", "mincore", "membarrier",
    // threads, waiting, signals to itself (kill/tgkill are checked below)
    "futex", "futex_waitv", "set_robust_list", "get_robust_list", "rseq", "set_tid_address", "exit", "exit_group", "gettid",
    "getpid", "getppid", "sched_yield", "sched_getaffinity", "sched_getparam", "sched_getscheduler", "nanosleep",
    "clock_nanosleep", "clock_gettime", "clock_getres", "gettimeofday", "time", "getrusage", "times", "restart_syscall",
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigtimedwait", "sigaltstack", "arch_prctl", "uname", "getuid",
    "geteuid", "getgid", "getegid", "getrandom", "getrlimit",
    // descriptors it holds (it cannot open new ones)
    "read", "readv", "pread64", "preadv", "preadv2", "write", "writev", "pwrite64", "pwritev", "lseek", "close", "fstat",
    "newfstatat", "statx", "fcntl", "dup", "dup2", "dup3", "fadvise64", "readahead", "fsync", "fdatasync", "sendfile",
    "splice", "copy_file_range", "ftruncate", "fallocate", "pipe2",
    // what names and folders look like (metadata only: nothing in them can be opened)
    "readlink", "readlinkat", "access", "faccessat", "faccessat2", "getcwd", "stat", "lstat",
    // its socket and waiting on it; event loops' wake-ups
    "recvmsg", "sendmsg", "recvfrom", "sendto", "shutdown", "poll", "ppoll", "select", "pselect6", "eventfd2", "epoll_create1",
    "epoll_ctl", "epoll_wait", "epoll_pwait", "epoll_pwait2", "timerfd_create", "timerfd_settime", "timerfd_gettime",
    // rings made before the lockdown, restricted to reads (io_uring_setup stays refused)
    "io_uring_enter", "io_uring_register"};

} // namespace

bool lockdownHasMemoryLimit()
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    return false;
#else
    return true;
#endif
#else
    return true;
#endif
}

Result<void> lockDown(const LockdownLimits &limits)
{
    auto fail = [](const char *what, int errnum) { return Error::system(QStringLiteral("worker"), QString::fromLatin1(what), errnum); };
    // AddressSanitizer and ThreadSanitizer reserve terabytes of address space for their shadow: such a build
    // runs its workers without the memory limit (lockdownHasMemoryLimit() says so).
    if (lockdownHasMemoryLimit()) {
        // Never above a limit the caller already has (ulimit -v): only lowered.
        rlimit memory{};
        ::getrlimit(RLIMIT_AS, &memory);
        const rlim_t ceiling = std::min<rlim_t>(rlim_t(limits.memoryBytes), memory.rlim_max);
        memory.rlim_cur = std::min(memory.rlim_cur, ceiling);
        memory.rlim_max = ceiling;
        if (::setrlimit(RLIMIT_AS, &memory) != 0)
            return fail("setrlimit(RLIMIT_AS)", errno);
    }
    rlimit files{};
    ::getrlimit(RLIMIT_NOFILE, &files);
    files.rlim_max = std::min<rlim_t>(rlim_t(limits.maxOpenFiles), files.rlim_max);
    files.rlim_cur = std::min(files.rlim_cur, files.rlim_max);
    if (::setrlimit(RLIMIT_NOFILE, &files) != 0)
        return fail("setrlimit(RLIMIT_NOFILE)", errno);
    const rlimit noCore{0, 0};
    ::setrlimit(RLIMIT_CORE, &noCore);
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return fail("prctl", errno);

    // Rings the benchmarks will borrow: made now, while io_uring_setup is allowed. Without
    // io_uring here the readers use their thread pool, as they would without the sandbox.
    if (limits.plainRings + limits.polledRings > 0)
        (void)prepareRingPool({limits.plainRings, limits.polledRings});

    // An allow-list: any call not named here fails with EPERM.
    Filter filter{seccomp_init(SCMP_ACT_ERRNO(EPERM))};
    if (!filter.ctx)
        return fail("seccomp_init", ENOMEM);
    Rules rules{filter.ctx};
    rules.add(SCMP_ACT_ALLOW, kAllowed);
    const auto self = scmp_datum_t(::getpid());
    // Signals only to itself (abort, a thread's wake-up); limits only read or lowered, its own.
    rules.add(SCMP_ACT_ALLOW, SCMP_SYS(kill), {SCMP_A0(SCMP_CMP_EQ, self, 0)});
    rules.add(SCMP_ACT_ALLOW, SCMP_SYS(tgkill), {SCMP_A0(SCMP_CMP_EQ, self, 0)});
    rules.add(SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), {SCMP_A0(SCMP_CMP_EQ, 0, 0)});
    rules.add(SCMP_ACT_ALLOW, SCMP_SYS(prlimit64), {SCMP_A0(SCMP_CMP_EQ, self, 0)});
    // Threads, not processes: clone without CLONE_THREAD fails. clone3 passes its flags in
    // memory a filter cannot read: refused as unknown, glibc then creates threads with clone.
    rules.add(SCMP_ACT_ALLOW, SCMP_SYS(clone), {SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD)});
    rules.add(SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3));
    // Thread names and the like; nothing that changes what the process may do.
    for (const int option : {PR_SET_NAME, PR_GET_NAME, PR_GET_DUMPABLE, PR_GET_NO_NEW_PRIVS, PR_GET_SECCOMP})
        rules.add(SCMP_ACT_ALLOW, SCMP_SYS(prctl), {SCMP_A0(SCMP_CMP_EQ, scmp_datum_t(option), 0)});
    // Device controls only to ask: is it a terminal, how big is this block device.
    for (const scmp_datum_t request : std::initializer_list<scmp_datum_t>{TCGETS, TIOCGWINSZ, FIONREAD, FIONBIO, BLKGETSIZE64, BLKSSZGET})
        rules.add(SCMP_ACT_ALLOW, SCMP_SYS(ioctl), {SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, request)});
    // Clearer errors than EPERM for what a library may try: starting a program (libarchive's
    // external decompressors), a socket, changing files.
    rules.add(SCMP_ACT_ERRNO(EACCES), {"socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "creat", "unlink",
                                       "unlinkat", "rename", "renameat", "renameat2", "mkdir", "mkdirat", "rmdir", "link", "linkat",
                                       "symlink", "symlinkat", "truncate", "memfd_create"});
    if (limits.mayExecute)
        rules.add(SCMP_ACT_ALLOW, {"execve", "execveat"});
    // openat2 passes its flags in memory: refused as unknown (glibc does not need it).
    rules.add(SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2));
    if (!limits.mayOpenFiles) {
        rules.add(SCMP_ACT_ERRNO(EACCES), SCMP_SYS(open));
        rules.add(SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat));
    } else {
        // Read-only opening only; with any flag that writes or creates, EACCES.
        const auto writes = scmp_datum_t(O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND | __O_TMPFILE);
        rules.add(SCMP_ACT_ALLOW, SCMP_SYS(open), {SCMP_A1(SCMP_CMP_MASKED_EQ, writes, 0)});
        rules.add(SCMP_ACT_ALLOW, SCMP_SYS(openat), {SCMP_A2(SCMP_CMP_MASKED_EQ, writes, 0)});
        for (const int flag : {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND, int(__O_TMPFILE)}) {
            rules.add(SCMP_ACT_ERRNO(EACCES), SCMP_SYS(open), {SCMP_A1(SCMP_CMP_MASKED_EQ, scmp_datum_t(flag), scmp_datum_t(flag))});
            rules.add(SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat), {SCMP_A2(SCMP_CMP_MASKED_EQ, scmp_datum_t(flag), scmp_datum_t(flag))});
        }
    }
    if (rules.rc != 0)
        return fail("seccomp_rule_add", -rules.rc);
    if (const int loaded = seccomp_load(filter.ctx); loaded != 0)
        return fail("seccomp_load", -loaded);
    return {};
}

} // namespace asc
