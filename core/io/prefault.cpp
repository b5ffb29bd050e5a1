// SPDX-License-Identifier: MIT
#include "prefault.h"

#include <cstdint>
#include <sys/mman.h>
#include <unistd.h>

namespace asc {

void prefault(void *at, size_t length)
{
#ifdef MADV_POPULATE_WRITE
    static const uintptr_t page = uintptr_t(::sysconf(_SC_PAGESIZE));
    // Whole pages inside the range only: a page shared with other data is written already or
    // will fault once, as before.
    const uintptr_t first = (uintptr_t(at) + page - 1) & ~(page - 1);
    const uintptr_t end = (uintptr_t(at) + length) & ~(page - 1);
    if (end > first)
        (void)::madvise(reinterpret_cast<void *>(first), end - first, MADV_POPULATE_WRITE);
#else
    (void)at;
    (void)length;
#endif
}

} // namespace asc
