// SPDX-License-Identifier: MIT
#include "cache_control.h"

#include "io/byte_text.h"
#include "io/file_source.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace asc {

double residentFraction(const QString &path)
{
    const int fd = openReadOnly(nativePath(path));
    if (fd < 0)
        return -1;
    struct stat st {};
    double fraction = -1;
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
        void *map = ::mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
        if (map != MAP_FAILED) {
            const long page = ::sysconf(_SC_PAGESIZE);
            const size_t pages = (size_t(st.st_size) + size_t(page) - 1) / size_t(page);
            std::vector<unsigned char> resident(pages);
            if (::mincore(map, size_t(st.st_size), resident.data()) == 0) {
                size_t in = 0;
                for (unsigned char r : resident)
                    in += r & 1;
                fraction = double(in) / double(pages);
            }
            ::munmap(map, size_t(st.st_size));
        }
    } else if (st.st_size == 0) {
        fraction = 0;
    }
    ::close(fd);
    return fraction;
}

Result<EvictionOutcome> evictFromPageCache(const QString &path)
{
    const int fd = openReadOnly(nativePath(path));
    if (fd < 0)
        return Error::system(path, QStringLiteral("open for cache eviction"), -fd);
    const int rc = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
    if (rc != 0)
        return Error::system(path, QStringLiteral("posix_fadvise(DONTNEED)"), rc);
    EvictionOutcome outcome;
    outcome.residentFraction = residentFraction(path);
    return outcome;
}

} // namespace asc
