// SPDX-License-Identifier: MIT
#include "scratch_file.h"

#include <QRandomGenerator>
#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace asc {

static ScratchFileMaker &maker()
{
    static ScratchFileMaker given;
    return given;
}

void setScratchFileMaker(ScratchFileMaker given)
{
    maker() = std::move(given);
}

int makeScratchFile(const QString &dir)
{
    const QByteArray folder = dir.toLocal8Bit();
    int fd = ::open(folder.constData(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
        return -errno;
    // No unnamed files here: a fresh name, removed at once (the descriptor keeps the file).
    const QByteArray path = folder + "/.archivescope-copy-" + QByteArray::number(QRandomGenerator::global()->generate64(), 36);
    fd = ::open(path.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return -errno;
    ::unlink(path.constData());
    return fd;
}

Result<int> createScratchFile(const QString &dir)
{
    const int fd = maker() ? maker()(dir) : makeScratchFile(dir);
    if (fd < 0)
        return Error::system(dir, QStringLiteral("create a scratch file"), -fd);
    return fd;
}

} // namespace asc
