// SPDX-License-Identifier: MIT
#pragma once
// Starts one of our helper programs (the worker, the LUKS key opener): posix_spawn with an empty
// signal mask (a thread that blocked signals must not pass that on) and the given descriptors
// placed at the given numbers; nothing else is inherited (ours are CLOEXEC).

#include <sys/types.h>
#include <utility>
#include <vector>

namespace asc {

// `argv` ends with nullptr; `placed` is (descriptor, number in the child). The pid, or -errno.
pid_t spawnHelper(const char *path, const std::vector<const char *> &argv, const std::vector<std::pair<int, int>> &placed);

} // namespace asc
