// SPDX-License-Identifier: MIT
#include "lockdown.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <csignal>
#include <sched.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>

namespace asc {

namespace {

struct Filter {
    scmp_filter_ctx ctx;
    ~Filter() { seccomp_release(ctx); }
};

// Adds a rule and remembers the first failure (a syscall this kernel or architecture lacks is
// not a failure: there is nothing to forbid).
int deny(scmp_filter_ctx ctx, int error, int syscall, unsigned count = 0, const scmp_arg_cmp *args = nullptr)
{
    if (syscall < 0)
        return 0;
    const int rc = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(uint16_t(error)), syscall, count, args);
    return rc == -EFAULT || rc == -EDOM ? 0 : rc;
}

} // namespace

bool lockdownHasMemoryLimit()
{
#if defined(__SANITIZE_ADDRESS__)
    return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
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
    // AddressSanitizer reserves terabytes of address space for its shadow: a sanitizer build
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

    Filter filter{seccomp_init(SCMP_ACT_ALLOW)};
    if (!filter.ctx)
        return fail("seccomp_init", ENOMEM);
    int rc = 0;
    // Programs, processes (threads stay allowed: clone with CLONE_THREAD), tracing.
    for (const char *name : {"execve", "execveat", "fork", "vfork", "ptrace", "process_vm_writev", "process_vm_readv", "kcmp",
                             "pidfd_getfd", "io_uring_setup", "io_uring_enter", "io_uring_register", "bpf", "perf_event_open",
                             "userfaultfd", "keyctl", "add_key", "request_key", "mount", "umount2", "pivot_root", "chroot",
                             "unshare", "setns", "init_module", "finit_module", "delete_module", "kexec_load", "reboot",
                             "swapon", "swapoff", "setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid",
                             "setgroups", "personality"})
        rc = rc ? rc : deny(filter.ctx, EPERM, seccomp_syscall_resolve_name(name));
    const scmp_arg_cmp newProcess[] = {SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0)};
    rc = rc ? rc : deny(filter.ctx, EPERM, SCMP_SYS(clone), 1, newProcess);
    // clone3 passes its flags in memory a filter cannot read: refused as unknown, glibc then
    // creates threads with clone.
    rc = rc ? rc : deny(filter.ctx, ENOSYS, SCMP_SYS(clone3));
    // Network: no sockets of any kind (the worker's own channel is inherited, already open).
    for (const char *name : {"socket", "socketpair", "connect", "bind", "listen", "accept", "accept4"})
        rc = rc ? rc : deny(filter.ctx, EACCES, seccomp_syscall_resolve_name(name));
    // Files: nothing created, changed or removed; nothing opened for writing.
    for (const char *name : {"creat", "unlink", "unlinkat", "rename", "renameat", "renameat2", "mkdir", "mkdirat", "rmdir", "link",
                             "linkat", "symlink", "symlinkat", "chmod", "fchmod", "fchmodat", "chown", "fchown", "lchown",
                             "fchownat", "truncate", "mknod", "mknodat", "setxattr", "lsetxattr", "fsetxattr", "removexattr",
                             "lremovexattr", "fremovexattr", "utime", "utimes", "utimensat", "futimesat", "name_to_handle_at",
                             "open_by_handle_at", "memfd_create", "fanotify_init", "inotify_init", "inotify_init1"})
        rc = rc ? rc : deny(filter.ctx, EACCES, seccomp_syscall_resolve_name(name));
    // openat2 passes its flags in memory: refused as unknown (glibc does not need it).
    rc = rc ? rc : deny(filter.ctx, ENOSYS, seccomp_syscall_resolve_name("openat2"));
    if (!limits.mayOpenFiles) {
        rc = rc ? rc : deny(filter.ctx, EACCES, SCMP_SYS(open));
        rc = rc ? rc : deny(filter.ctx, EACCES, SCMP_SYS(openat));
    } else {
        for (const int flag : {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND, int(__O_TMPFILE)}) {
            const scmp_arg_cmp openFlags[] = {SCMP_A1(SCMP_CMP_MASKED_EQ, scmp_datum_t(flag), scmp_datum_t(flag))};
            const scmp_arg_cmp openatFlags[] = {SCMP_A2(SCMP_CMP_MASKED_EQ, scmp_datum_t(flag), scmp_datum_t(flag))};
            rc = rc ? rc : deny(filter.ctx, EACCES, SCMP_SYS(open), 1, openFlags);
            rc = rc ? rc : deny(filter.ctx, EACCES, SCMP_SYS(openat), 1, openatFlags);
        }
    }
    if (rc != 0)
        return fail("seccomp_rule_add", -rc);
    if (const int loaded = seccomp_load(filter.ctx); loaded != 0)
        return fail("seccomp_load", -loaded);
    return {};
}

} // namespace asc
