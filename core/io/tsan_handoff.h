// SPDX-License-Identifier: MIT
#pragma once
// What Qt's thread pools guarantee, said to ThreadSanitizer: work handed to a QThreadPool
// happens-before the task runs. Qt is not built with TSan and synchronises with futexes it cannot
// see, so without this every capture of a pooled task reads as a race. No-ops in other builds.

#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void *addr);
extern "C" void __tsan_release(void *addr);
#endif

namespace asc {

// Before handing a task to a pool (after making it), with a key the task finds without reading
// its captures: a static's address.
inline void handOff([[maybe_unused]] const void *key)
{
#if defined(__SANITIZE_THREAD__)
    __tsan_release(const_cast<void *>(key));
#endif
}

// First thing in the task, with the same key.
inline void takeOver([[maybe_unused]] const void *key)
{
#if defined(__SANITIZE_THREAD__)
    __tsan_acquire(const_cast<void *>(key));
#endif
}

} // namespace asc
