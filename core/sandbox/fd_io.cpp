// SPDX-License-Identifier: MIT
#include "fd_io.h"

#include <cerrno>
#include <unistd.h>

namespace asc {

bool writeAll(int fd, const char *data, size_t n)
{
    while (n > 0) {
        const ssize_t put = ::write(fd, data, n);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return false;
        data += put;
        n -= size_t(put);
    }
    return true;
}

bool readExactly(int fd, char *data, size_t n)
{
    while (n > 0) {
        const ssize_t got = ::read(fd, data, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return false;
        data += got;
        n -= size_t(got);
    }
    return true;
}

} // namespace asc
