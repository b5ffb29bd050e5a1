// SPDX-License-Identifier: MIT
#include "atomic_file.h"

#include <QFileInfo>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace asc {

static AtomicWriter &writer()
{
    static AtomicWriter given;
    return given;
}

void setAtomicWriter(AtomicWriter given)
{
    writer() = std::move(given);
}

bool writerIsParent()
{
    return bool(writer());
}

Result<void> writeFileAtomically(const QString &path, const QByteArray &bytes)
{
    if (writer())
        return writer()(path, bytes);
    return writeFileHere(path, bytes, Durability::Durable);
}

Result<void> writeFileHere(const QString &path, const QByteArray &bytes, Durability durability)
{
    const QFileInfo info(path);
    const QByteArray dir = info.absolutePath().toLocal8Bit();
    QByteArray temp = (info.absolutePath() + QStringLiteral("/.") + info.fileName() + QStringLiteral(".tmp-XXXXXX")).toLocal8Bit();
    const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
    if (fd < 0)
        return Error::system(path, QStringLiteral("create temporary file"), errno);
    auto failed = [&](const QString &operation) {
        const int err = errno;
        ::close(fd);
        ::unlink(temp.constData());
        return Error::system(path, operation, err);
    };
    for (qsizetype done = 0; done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.constData() + done, size_t(bytes.size() - done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return failed(QStringLiteral("write"));
        done += n;
    }
    if (::fchmod(fd, 0644) != 0 || (durability == Durability::Durable && ::fsync(fd) != 0))
        return failed(QStringLiteral("fsync"));
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(temp.constData());
        return Error::system(path, QStringLiteral("close"), err);
    }
    if (::rename(temp.constData(), path.toLocal8Bit().constData()) != 0) {
        const int err = errno;
        ::unlink(temp.constData());
        return Error::system(path, QStringLiteral("rename into place"), err);
    }
    const int dirfd = durability == Durability::Durable ? ::open(dir.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (dirfd >= 0) {
        ::fsync(dirfd);
        ::close(dirfd);
    }
    return {};
}

} // namespace asc
