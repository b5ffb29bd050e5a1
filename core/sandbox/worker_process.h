// SPDX-License-Identifier: MIT
#pragma once
// Runs a piece of work in a child process (fork: the same program, the same arguments) locked
// down with lockDown(), and supervises it: a child that makes no progress (reads no byte of its
// input, writes no byte of output) for `noProgressSeconds` is killed; how it ended (its status,
// a signal, the memory limit, the stall) comes back as a value the caller turns into a message.
// Forked before the parent starts threads: call it before anything runs a thread pool.

#include "sandbox/lockdown.h"
#include "io/error.h"
#include "sandbox/proc_io.h"

#include <functional>
#include <sys/types.h>

namespace asc {

struct WorkerLimits {
    LockdownLimits lockdown;
    int noProgressSeconds = 30; // 0: wait for ever
    // While it waits, the parent answers the child's requests: `serve` runs whenever `serveFd`
    // is readable (the child asking for a file it may not open itself); false: stop watching it.
    int serveFd = -1;
    std::function<bool()> serve;
};

struct WorkerEnd {
    int exitCode = -1; // when it exited
    int signal = 0; // when a signal ended it
    bool stalled = false; // killed for making no progress
    bool outOfMemory = false; // its allocation failed at the memory limit
    bool lockdownFailed = false;
    // What the kernel counted for the child (for ARCHIVESCOPE_WORK_FILE); empty when unknown.
    std::optional<ProcIo> io;
    int64_t maxrssKib = -1;
};

// The exit status a worker uses when an allocation fails (RLIMIT_AS reached).
constexpr int kWorkerOutOfMemory = 125;
// ... and when it could not lock itself down (it then parsed nothing).
constexpr int kWorkerLockdownFailed = 124;

// How a worker ended, from its wait status (waitpid): its exit code, signal, memory limit,
// failed lockdown. For workers started any way (runInWorker, or a program of their own).
void readWaitStatus(WorkerEnd &end, int status);

// How a worker's end reads to the user, the window's and the CLI's alike (the CLI adds which
// option changes a limit): "the worker reading it crashed (signal 11: Segmentation fault)".
// Empty for a worker that exited by itself with a status of its own (the caller knows what that
// status means).
struct WorkerEndText {
    ErrorKind kind = ErrorKind::Format;
    QString text;
};
std::optional<WorkerEndText> describeWorkerEnd(const WorkerEnd &end, uint64_t memoryLimit, int quietSeconds);

// Makes this process a worker before it locks down: a crash ends it by its signal (not by a
// handler a test framework or sanitizer installed), a failed allocation exits with
// kWorkerOutOfMemory.
void becomeWorker();

// Runs `work` in the child (its return value is the child's exit status); stdout and stderr are
// shared. In the parent, returns once the child has ended.
WorkerEnd runInWorker(const std::function<int()> &work, const WorkerLimits &limits);

} // namespace asc
