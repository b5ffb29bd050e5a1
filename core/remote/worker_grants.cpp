// SPDX-License-Identifier: MIT
#include "worker_grants.h"

#include "formats/format.h"
#include "io/byte_text.h"
#include "open/reading_policy.h"
#include "open/split_set.h"

#include <QFile>
#include <QFileInfo>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace asc {

// The canonical form of a path as bytes (names need not be UTF-8); empty when it does not exist.
QByteArray canonicalPath(const QByteArray &path)
{
    char *resolved = ::realpath(path.constData(), nullptr);
    if (!resolved)
        return {};
    QByteArray out(resolved);
    std::free(resolved);
    return out;
}

// Whether `path` is the io counters (/proc/N/io, /proc/N/task/T/io) of a child of this process:
// what a benchmark in the worker reads about itself.
static bool isChildsIoFile(const QByteArray &path)
{
    int pid = 0, tid = 0, end = 0;
    const bool process = std::sscanf(path.constData(), "/proc/%d/io%n", &pid, &end) == 1 && end == path.size();
    const bool thread = !process && std::sscanf(path.constData(), "/proc/%d/task/%d/io%n", &pid, &tid, &end) == 2 && end == path.size();
    if (!process && !thread)
        return false;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    // "PID (name) STATE PPID ...": the name may hold anything but ends at the last ')'.
    const QByteArray line = stat.readAll();
    const QList<QByteArray> after = line.mid(line.lastIndexOf(')') + 2).split(' ');
    return after.size() > 1 && after[1].toLongLong() == ::getpid();
}

FileGrant grantOf(const QString &file)
{
    FileGrant grant;
    grant.file = canonicalPath(nativePath(file));
    if (grant.file.isEmpty())
        return grant;
    // By names only, as the worker will look for them: every part it will find, also of a set
    // missing one (the worker then says which).
    (void)splitSetOf(file, [&](const QString &name) {
        const bool there = QFileInfo(name).isFile();
        if (there && name != file)
            grant.parts << canonicalPath(nativePath(name));
        return there;
    });
    // What its format reads beside it, as the format declares from the file's first bytes and
    // name (Format::beside): read here, in the parent, and compared, never parsed.
    QFile head(QFile::decodeName(grant.file));
    struct stat st {};
    if (::stat(grant.file.constData(), &st) != 0 || !S_ISREG(st.st_mode) || !head.open(QIODevice::ReadOnly))
        return grant; // a device names nothing beside it: its folder (/dev) holds the machine's other disks
    const QByteArray first = head.read(qint64(kBesideHeadBytes));
    const BesideFiles beside = besideFilesOf(std::span<const char>(first.constData(), size_t(first.size())), file);
    if (beside.folder)
        grant.siblings = FileGrant::Siblings::Folder;
    if (!beside.companion.isEmpty())
        grant.payload = canonicalPath(nativePath(beside.companion));
    return grant;
}

bool grantCovers(const FileGrant &grant, const QByteArray &asked)
{
    if (grant.file.isEmpty())
        return false;
    if (asked == grant.file || (!grant.payload.isEmpty() && asked == grant.payload) || grant.parts.contains(asked))
        return true;
    if (grant.siblings != FileGrant::Siblings::Folder)
        return false;
    // Siblings are resolved from the file's folder, down (formats/image/sibling_file.h). A file at
    // the root would grant the whole machine that way: there, only the files beside it.
    const QByteArray folder = grant.file.left(grant.file.lastIndexOf('/'));
    if (!asked.startsWith(folder + '/'))
        return false;
    return !folder.isEmpty() || asked.indexOf('/', 1) < 0;
}

int openForWorker(const QStringList &files, const QByteArray &path, const QStringList &approved)
{
    if (isChildsIoFile(path)) {
        const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC);
        return fd >= 0 ? fd : -errno;
    }
    const QByteArray asked = canonicalPath(path);
    if (asked.isEmpty())
        return -ENOENT;
    bool allowed = backingPolicy().allowOutside;
    for (const QString &file : approved)
        allowed = allowed || asked == canonicalPath(nativePath(file));
    for (qsizetype i = 0; i < files.size() && !allowed; ++i)
        allowed = grantCovers(grantOf(files[i]), asked);
    if (!allowed)
        return -EACCES;
    // Not blocking on a FIFO a hostile worker names: opened without waiting, then only regular
    // files and block devices are passed on (a directory says so: the error the worker shows).
    const int fd = ::open(asked.constData(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return -errno;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))) {
        ::close(fd);
        return S_ISDIR(st.st_mode) ? -EISDIR : -ENODEV;
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

// The same file as the user named it: compared as absolute, cleaned paths.
bool sameFile(const QString &a, const QString &b)
{
    return QFileInfo(a).absoluteFilePath() == QFileInfo(b).absoluteFilePath();
}

} // namespace asc
