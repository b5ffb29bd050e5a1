// SPDX-License-Identifier: MIT
#include "io/trace.h"
#include "file_source.h"

#include "io/byte_text.h"
#include "io/cancel.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

namespace asc {

static FileOpener &fileOpener()
{
    static FileOpener opener;
    return opener;
}

void setFileOpener(FileOpener opener)
{
    fileOpener() = std::move(opener);
}

int openReadOnly(const QByteArray &nativePath, int statusFlags)
{
    const int fd = fileOpener() ? fileOpener()(nativePath) : ::open(nativePath.constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fileOpener() ? fd : -errno;
    if (statusFlags != 0 && ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | statusFlags) != 0) {
        const int err = errno;
        ::close(fd);
        return -err;
    }
    return fd;
}

Result<std::shared_ptr<FileSource>> FileSource::open(const QString &path)
{
    const int fd = openReadOnly(nativePath(path));
    // A worker's parent passes regular files and block devices only; what else it was is told as
    // an errno, and worded as here.
    if (fd == -EISDIR || fd == -ENODEV)
        return Error::make(ErrorKind::Usage, path, fd == -EISDIR ? QStringLiteral("is a directory") : QStringLiteral("not a regular file or block device"));
    if (fd < 0)
        return Error::system(path, QStringLiteral("open"), -fd);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        int err = errno;
        ::close(fd);
        return Error::system(path, QStringLiteral("stat"), err);
    }
    uint64_t size = 0;
    if (S_ISREG(st.st_mode)) {
        size = uint64_t(st.st_size);
    } else if (S_ISBLK(st.st_mode)) {
        if (::ioctl(fd, BLKGETSIZE64, &size) != 0) {
            int err = errno;
            ::close(fd);
            return Error::system(path, QStringLiteral("get block device size"), err);
        }
    } else {
        ::close(fd);
        return Error::make(ErrorKind::Usage, path,
                           S_ISDIR(st.st_mode) ? QStringLiteral("is a directory")
                                               : QStringLiteral("not a regular file or block device"));
    }
    return std::shared_ptr<FileSource>(new FileSource(path, fd, size));
}

FileSource::FileSource(QString path, int fd, uint64_t size)
    : path_(std::move(path)),
      fd_(fd),
      size_(size)
{
}

FileSource::~FileSource()
{
    ::close(fd_);
}

Result<size_t> FileSource::readAt(uint64_t offset, std::span<char> buf) const
{
    if (stopRequested())
        return Error::cancelled();
    if (offset >= size_)
        return size_t(0);
    const size_t want = size_t(std::min<uint64_t>(buf.size(), size_ - offset));
    size_t done = 0;
    while (done < want) {
        ssize_t n = ::pread(fd_, buf.data() + done, want - done, off_t(offset + done));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return Error::system(path_, QStringLiteral("read"), errno, offset + done);
        }
        if (n == 0)
            break; // the file shrank under us: report what we have
        done += size_t(n);
    }
    if (IoTrace::enabled())
        IoTrace::record(path_, offset, done);
    return done;
}

std::optional<FileExtent> FileSource::fileExtent(uint64_t offset) const
{
    if (offset >= size_)
        return std::nullopt;
    return FileExtent{fd_, offset, size_ - offset, path_};
}

uint64_t FileSource::zeroRun(uint64_t offset) const
{
    if (offset >= size_)
        return 0;
    // A hole of a sparse file: SEEK_DATA jumps past it (ENXIO: a hole up to the end).
    const off_t data = ::lseek(fd_, off_t(offset), SEEK_DATA);
    if (data < 0)
        return errno == ENXIO ? size_ - offset : 0;
    return uint64_t(data) > offset ? std::min<uint64_t>(uint64_t(data), size_) - offset : 0;
}

} // namespace asc
