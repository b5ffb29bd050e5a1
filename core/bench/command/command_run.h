// SPDX-License-Identifier: MIT
#pragma once
// One run of a user's command against a benchmark target: its placeholders filled for a buffer
// size, the target given as {file} or on standard input ({stdin}: the file itself when the target
// is one, else a pipe our reader feeds), the whole process tree measured (process_tree.h).

#include "bench/command/command_template.h"
#include "bench/command/process_tree.h"
#include "bench/read_strategy.h"

namespace asc {

struct CommandRun {
    ProcessTreeMeasurement tree;
    QString command; // as run, expanded
};

// Whether the command can read this target: one inside a container has no {file} (a usage error
// saying to use {stdin}).
Result<void> checkCommandTarget(const CommandTemplate &command, const ReadTarget &target);

// A non-zero exit or a signal is an error naming the command, its status and its last words.
Result<CommandRun> runCommand(const CommandTemplate &command, const ReadTarget &target, uint64_t buffer, bool traceTargetReads,
                              const CancelFlag &cancel);

} // namespace asc
