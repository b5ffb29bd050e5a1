// SPDX-License-Identifier: MIT
#include "io/trace.h"
#include "mmap_source.h"

#include "io/byte_text.h"
#include "io/cancel.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace asc {

Result<std::shared_ptr<MmapSource>> MmapSource::open(const QString &path)
{
    int fd = ::open(nativePath(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return Error::system(path, QStringLiteral("open"), errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int err = S_ISREG(st.st_mode) ? errno : EINVAL;
        ::close(fd);
        return err == EINVAL ? Error::make(ErrorKind::Usage, path, QStringLiteral("not a regular file"))
                             : Error::system(path, QStringLiteral("stat"), err);
    }
    const uint64_t size = uint64_t(st.st_size);
    const char *data = nullptr;
    if (size > 0) {
        void *map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
        if (map == MAP_FAILED) {
            int err = errno;
            ::close(fd);
            return Error::system(path, QStringLiteral("mmap"), err);
        }
        data = static_cast<const char *>(map);
    }
    ::close(fd); // the mapping keeps the file referenced
    return std::shared_ptr<MmapSource>(new MmapSource(path, data, size));
}

MmapSource::MmapSource(QString path, const char *data, uint64_t size)
    : path_(std::move(path)),
      data_(data),
      size_(size)
{
}

MmapSource::~MmapSource()
{
    if (data_)
        ::munmap(const_cast<char *>(data_), size_);
}

Result<size_t> MmapSource::readAt(uint64_t offset, std::span<char> buf) const
{
    if (stopRequested())
        return Error::cancelled();
    if (offset >= size_)
        return size_t(0);
    const size_t n = size_t(std::min<uint64_t>(buf.size(), size_ - offset));
    std::memcpy(buf.data(), data_ + offset, n);
    if (IoTrace::enabled())
        IoTrace::record(name(), offset, n);
    return n;
}

} // namespace asc
