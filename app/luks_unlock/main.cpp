// SPDX-License-Identifier: MIT
// archivescope-luks-unlock: opens a LUKS volume's key slots with libcryptsetup and answers its key
// (formats/luks/luks_unlock.h starts it; sandbox/luks_unlock_protocol.h is what it reads
// and writes). Not for people. It reads the whole request first, puts the metadata in a memory
// file, then locks itself down (no programs, no sockets, nothing written but its stdout, a memory
// and a CPU ceiling) before libcryptsetup parses a byte. The key and passwords are wiped on the way out.

#include "sandbox/luks_unlock_protocol.h"
#include "sandbox/fd_io.h"
#include "sandbox/lockdown.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <libcryptsetup.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

namespace {

int answerError(const QByteArray &what)
{
    const QByteArray answer = 'E' + what;
    asc::writeAll(1, answer.constData(), size_t(answer.size()));
    return 1;
}

void quiet(int, const char *, void *)
{
}

} // namespace

int main()
{
    if (::isatty(0)) {
        std::fputs("archivescope-luks-unlock: started by ArchiveScope to open a LUKS volume's key slots; not for use by hand\n", stderr);
        return 2;
    }
    asc::luks_unlock::Request request;
    if (!asc::luks_unlock::readRequest([](char *p, size_t n) { return asc::readExactly(0, p, n); }, request))
        return answerError("malformed request");
    const int metadata = ::memfd_create("luks-metadata", MFD_CLOEXEC);
    if (metadata < 0 || !asc::writeAll(metadata, request.metadata.constData(), size_t(request.metadata.size())))
        return answerError("cannot keep the metadata in memory: " + QByteArray(std::strerror(errno)));
    asc::LockdownLimits limits;
    limits.memoryBytes = asc::luks_unlock::kMemoryBytes;
    limits.maxOpenFiles = 32;
    limits.mayOpenFiles = true; // read-only: libcryptsetup opens its "device" by path, /proc/self/fd/N
    const rlimit cpu{rlim_t(asc::luks_unlock::kCpuSeconds), rlim_t(asc::luks_unlock::kCpuSeconds)};
    ::setrlimit(RLIMIT_CPU, &cpu);
    if (auto locked = asc::lockDown(limits); !locked)
        return answerError("lockdown failed: " + locked.error().toString().toUtf8());

    crypt_set_log_callback(nullptr, quiet, nullptr);
    crypt_metadata_locking(nullptr, 0); // nothing to lock: the metadata is our own copy
    const QByteArray device = "/proc/self/fd/" + QByteArray::number(metadata);
    crypt_device *cd = nullptr;
    if (const int r = crypt_init(&cd, device.constData()); r < 0)
        return answerError("libcryptsetup cannot read the metadata: " + QByteArray(std::strerror(-r)));
    if (const int r = crypt_load(cd, CRYPT_LUKS, nullptr); r < 0) {
        crypt_free(cd);
        return answerError("libcryptsetup does not accept this LUKS header (damaged or cut?): " + QByteArray(std::strerror(-r)));
    }
    char key[512];
    size_t keySize = sizeof key;
    int opened = -EPERM;
    for (QByteArray &password : request.passwords) {
        keySize = sizeof key;
        opened = crypt_volume_key_get(cd, CRYPT_ANY_SLOT, key, &keySize, password.constData(), size_t(password.size()));
        ::explicit_bzero(password.data(), size_t(password.size()));
        if (opened >= 0 || opened != -EPERM)
            break;
    }
    crypt_free(cd);
    if (opened == -EPERM) {
        asc::writeAll(1, "W", 1);
        return 0;
    }
    if (opened == -ENOMEM)
        return answerError("a key slot's PBKDF needs more memory than the limit of 5 GiB");
    if (opened < 0)
        return answerError("libcryptsetup: " + QByteArray(std::strerror(-opened)));
    char answer[5 + sizeof key];
    answer[0] = 'K';
    qToLittleEndian(uint32_t(keySize), answer + 1);
    std::memcpy(answer + 5, key, keySize);
    const bool sent = asc::writeAll(1, answer, 5 + keySize);
    ::explicit_bzero(key, sizeof key);
    ::explicit_bzero(answer, sizeof answer);
    return sent ? 0 : 1;
}
