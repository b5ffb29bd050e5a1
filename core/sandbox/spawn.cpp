// SPDX-License-Identifier: MIT
#include "spawn.h"

#include <csignal>
#include <spawn.h>

extern char **environ;

namespace asc {

pid_t spawnHelper(const char *path, const std::vector<const char *> &argv, const std::vector<std::pair<int, int>> &placed)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    for (const auto &[fd, number] : placed)
        posix_spawn_file_actions_adddup2(&actions, fd, number);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
    pid_t pid = -1;
    const int spawned = ::posix_spawn(&pid, path, &actions, &attributes, const_cast<char **>(argv.data()), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return spawned == 0 ? pid : -spawned;
}

} // namespace asc
