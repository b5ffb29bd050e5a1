// SPDX-License-Identifier: MIT
#include "luks_unlock.h"

#include "sandbox/luks_unlock_protocol.h"

#include "formats/archive/archive_passwords.h"
#include "sandbox/fd_io.h"
#include "sandbox/helper_program.h"
#include "sandbox/spawn.h"

#include <QCryptographicHash>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <sys/wait.h>
#include <unistd.h>

namespace asc {

namespace {

std::mutex &unlockerMutex()
{
    static std::mutex m;
    return m;
}

VolumeUnlocker &unlocker()
{
    static VolumeUnlocker u = unlockAsking;
    return u;
}

// Opened keys, by the hash of the metadata they open (a volume opened again, or its copy).
struct KeyCache {
    std::mutex mutex;
    std::map<QByteArray, QByteArray> keys;
};
KeyCache &keyCache()
{
    static KeyCache cache;
    return cache;
}

QByteArray readAll(int fd)
{
    QByteArray out;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        out.append(buf, n);
        if (out.size() > (1 << 20))
            break; // the answer is a key or a line: anything longer is not ours
    }
    ::explicit_bzero(buf, sizeof buf);
    return out;
}

} // namespace

void setVolumeUnlocker(VolumeUnlocker replacement)
{
    std::lock_guard lock(unlockerMutex());
    unlocker() = std::move(replacement);
}

Result<QByteArray> unlockWithHelper(const QByteArray &metadata, const QList<QByteArray> &passwords, const QString &name)
{
    if (passwords.isEmpty())
        return Error::make(ErrorKind::Password, name,
                           QStringLiteral("the LUKS volume is encrypted: a password is needed (--password-file FILE or ARCHIVESCOPE_PASSWORD; in the window, File > Enter Password…)"));
    const QString program = helperProgram(QStringLiteral("archivescope-luks-unlock"), "ARCHIVESCOPE_LUKS_UNLOCK");
    const QByteArray path = program.toLocal8Bit();
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0)
        return Error::system(name, QStringLiteral("pipe"), errno);
    if (::pipe2(out, O_CLOEXEC) != 0) {
        const int e = errno;
        ::close(in[0]);
        ::close(in[1]);
        return Error::system(name, QStringLiteral("pipe"), e);
    }
    const pid_t pid = spawnHelper(path.constData(), {path.constData(), nullptr}, {{in[0], 0}, {out[1], 1}});
    ::close(in[0]);
    ::close(out[1]);
    if (pid < 0) {
        ::close(in[1]);
        ::close(out[0]);
        return Error::make(ErrorKind::NotFound, name, QStringLiteral("cannot start %1 to open the LUKS key slots: %2").arg(program, QString::fromLocal8Bit(std::strerror(int(-pid)))));
    }
    // The request is written whole before the answer is read: the helper reads all of it first.
    QByteArray request = luks_unlock::encodeRequest(metadata, passwords);
    const bool sent = writeAll(in[1], request.constData(), size_t(request.size()));
    ::explicit_bzero(request.data(), size_t(request.size()));
    ::close(in[1]);
    QByteArray answer = readAll(out[0]);
    ::close(out[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    auto decoded = luks_unlock::decodeAnswer(answer, name);
    ::explicit_bzero(answer.data(), size_t(answer.size()));
    if (decoded)
        return decoded;
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        const QString why = sig == SIGXCPU || sig == SIGKILL ? QStringLiteral("it ran past its limit of %1 s of CPU (a key slot with a very costly PBKDF?)").arg(luks_unlock::kCpuSeconds)
                                                             : QStringLiteral("it ended on signal %1").arg(sig);
        return Error::make(ErrorKind::Limit, name, QStringLiteral("opening the LUKS key slots failed: %1").arg(why));
    }
    if (!sent)
        return Error::make(ErrorKind::System, name, QStringLiteral("opening the LUKS key slots failed: %1 did not take the request").arg(program));
    return decoded;
}

Result<QByteArray> unlockAsking(const QByteArray &metadata, const QList<QByteArray> &passwords, const QString &name)
{
    auto key = unlockWithHelper(metadata, passwords, name);
    for (int asked = 0; !key && key.error().kind == ErrorKind::Password && asked < 3 && canAskForPasswords(); ++asked) {
        std::optional<QByteArray> answer = askForPassword(name, !passwords.isEmpty() || asked > 0);
        if (!answer)
            break;
        key = unlockWithHelper(metadata, {*answer}, name);
        if (key) {
            QList<QByteArray> kept = archivePasswords();
            kept.prepend(*answer);
            setDefaultArchivePasswords(std::move(kept));
        }
        ::explicit_bzero(answer->data(), size_t(answer->size()));
    }
    return key;
}

Result<QByteArray> luksVolumeKey(const LuksHeader &header, const ByteSource &source)
{
    QByteArray metadata(qsizetype(header.metadataBytes()), Qt::Uninitialized);
    if (auto read = source.readExact(0, std::span(metadata.data(), size_t(metadata.size()))); !read)
        return std::move(read).error();
    const QByteArray id = QCryptographicHash::hash(metadata, QCryptographicHash::Sha256);
    {
        std::lock_guard lock(keyCache().mutex);
        if (auto it = keyCache().keys.find(id); it != keyCache().keys.end())
            return it->second;
    }
    const QString name = source.name();
    QList<QByteArray> passwords = archivePasswords();
    VolumeUnlocker open;
    {
        std::lock_guard lock(unlockerMutex());
        open = unlocker();
    }
    auto key = open(metadata, passwords, name);
    wipePasswords(passwords);
    if (!key) {
        // Named by its UUID: the SPEC says where, the UUID which volume (blkid, crypttab).
        Error error = std::move(key).error();
        if (error.kind == ErrorKind::Password)
            error.message.replace(QLatin1String("the LUKS volume"), QStringLiteral("LUKS%1 volume %2").arg(header.version).arg(header.uuid));
        return error;
    }
    if (key->size() != header.keyBytes && header.keyBytes != 0)
        return Error::format(name, 0, QStringLiteral("the LUKS key opened is %1 bytes, the header says %2").arg(key->size()).arg(header.keyBytes));
    std::lock_guard lock(keyCache().mutex);
    keyCache().keys[id] = *key;
    return key;
}

} // namespace asc
