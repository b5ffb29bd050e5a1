// SPDX-License-Identifier: MIT
#include "landlock.h"

#include <cerrno>
#include <cstdint>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

// Debian 12's kernel headers know ABI 2 at most: the calls and rights used here are spelled out
// as the kernel's uapi defines them, so a newer kernel's extra protections are used too.
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

namespace asc {

namespace {

struct RulesetAttr {
    uint64_t handledFs = 0;
    uint64_t handledNet = 0; // ABI 4
    uint64_t scoped = 0; // ABI 6
};

struct PathBeneath {
    uint64_t allowed;
    int32_t parentFd;
} __attribute__((packed));

constexpr uint32_t kCreateVersion = 1u << 0;
constexpr int kRulePathBeneath = 1;

constexpr uint64_t kExecute = 1ull << 0, kWriteFile = 1ull << 1, kReadFile = 1ull << 2, kReadDir = 1ull << 3;
constexpr uint64_t kRemoveDir = 1ull << 4, kRemoveFile = 1ull << 5, kMakeChar = 1ull << 6, kMakeDir = 1ull << 7;
constexpr uint64_t kMakeReg = 1ull << 8, kMakeSock = 1ull << 9, kMakeFifo = 1ull << 10, kMakeBlock = 1ull << 11;
constexpr uint64_t kMakeSym = 1ull << 12, kRefer = 1ull << 13, kTruncate = 1ull << 14, kIoctlDev = 1ull << 15;
constexpr uint64_t kNetBindTcp = 1ull << 0, kNetConnectTcp = 1ull << 1;
constexpr uint64_t kScopeAbstractUnix = 1ull << 0, kScopeSignal = 1ull << 1;
// Rights that make sense on a file (the others only on folders).
constexpr uint64_t kFileRights = kExecute | kWriteFile | kReadFile | kTruncate | kIoctlDev;

struct Fd {
    int fd;
    ~Fd()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

} // namespace

int landlockVersion()
{
    const long abi = ::syscall(SYS_landlock_create_ruleset, nullptr, 0, kCreateVersion);
    return abi > 0 ? int(abi) : 0;
}

Result<bool> restrictFilesystem(const LandlockPaths &paths)
{
    auto fail = [](const char *what, int errnum) { return Error::system(QStringLiteral("tool jail"), QString::fromLatin1(what), errnum); };
    const int abi = landlockVersion();
    if (abi == 0)
        return false;
    RulesetAttr attr;
    attr.handledFs = kExecute | kWriteFile | kReadFile | kReadDir | kRemoveDir | kRemoveFile | kMakeChar | kMakeDir | kMakeReg | kMakeSock | kMakeFifo | kMakeBlock | kMakeSym;
    size_t attrSize = sizeof(uint64_t);
    if (abi >= 2)
        attr.handledFs |= kRefer;
    if (abi >= 3)
        attr.handledFs |= kTruncate;
    if (abi >= 4) {
        attr.handledNet = kNetBindTcp | kNetConnectTcp; // no rule allows either: no TCP at all
        attrSize = 2 * sizeof(uint64_t);
    }
    if (abi >= 5)
        attr.handledFs |= kIoctlDev;
    if (abi >= 6) {
        attr.scoped = kScopeAbstractUnix | kScopeSignal;
        attrSize = sizeof attr;
    }
    const Fd ruleset{int(::syscall(SYS_landlock_create_ruleset, &attr, attrSize, 0))};
    if (ruleset.fd < 0)
        return fail("landlock_create_ruleset", errno);

    auto grant = [&](const QByteArray &path, uint64_t rights) -> Result<void> {
        const Fd target{::open(path.constData(), O_PATH | O_CLOEXEC)};
        if (target.fd < 0)
            return {}; // nothing there to grant
        struct stat st {};
        if (::fstat(target.fd, &st) != 0)
            return fail("fstat", errno);
        if (!S_ISDIR(st.st_mode))
            rights &= kFileRights;
        const PathBeneath rule{rights & attr.handledFs, target.fd};
        if (::syscall(SYS_landlock_add_rule, ruleset.fd, kRulePathBeneath, &rule, 0) != 0)
            return fail("landlock_add_rule", errno);
        return {};
    };
    const uint64_t read = kReadFile | kReadDir;
    const uint64_t write = read | kWriteFile | kTruncate | kRemoveDir | kRemoveFile | kMakeDir | kMakeReg | kMakeSym | kRefer;
    for (const QByteArray &path : paths.readable)
        if (auto granted = grant(path, read); !granted)
            return std::move(granted).error();
    for (const QByteArray &path : paths.executable)
        if (auto granted = grant(path, kExecute | kReadFile); !granted)
            return std::move(granted).error();
    for (const QByteArray &path : paths.writable)
        if (auto granted = grant(path, write); !granted)
            return std::move(granted).error();
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return fail("prctl(PR_SET_NO_NEW_PRIVS)", errno);
    if (::syscall(SYS_landlock_restrict_self, ruleset.fd, 0) != 0)
        return fail("landlock_restrict_self", errno);
    return true;
}

} // namespace asc
