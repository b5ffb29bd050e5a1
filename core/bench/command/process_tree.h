// SPDX-License-Identifier: MIT
#pragma once
// Runs a command and measures its whole process tree as the kernel accounts it: wall time, user
// and system CPU and peak RSS of every descendant (getrusage(RUSAGE_CHILDREN) of a subreaper that
// reaps them all), and the I/O counters of every task, read at each task's exit through a ptrace
// exit-stop (/proc/PID/task/TID/io). Only fork, clone, exec and exit stop the tree, so a timed run
// costs a few stops per process, not per system call.
//
// A traced run (untimed) also stops at each read-family system call (a seccomp filter returns
// SECCOMP_RET_TRACE for read, pread64, readv, preadv, preadv2, sendfile, splice, copy_file_range,
// mmap and io_uring_setup only) and records the calls on the target: offset, request, result.

#include "io/cancel.h"
#include "sandbox/proc_io.h"
#include "io/result.h"

#include <QString>
#include <QStringList>
#include <sys/types.h>
#include <vector>

namespace asc {

struct ProcessTreeRequest {
    QStringList argv; // argv[0] resolved to an executable path
    QString label; // for errors: the command as the user wrote it
    int stdinFd = -1; // the command's standard input; -1 = /dev/null
    int feedFd = -1; // our end of a stdin pipe: closed in the tree, or the command never sees its end
    bool traceTargetReads = false;
    dev_t targetDevice = 0; // what a traced read must be on to count (a file, or the stdin pipe)
    ino_t targetInode = 0;
};

// One read-family call on the target, from a traced run.
struct TargetRead {
    uint64_t offset = 0; // the file position (or pread offset) the call read from
    uint64_t request = 0; // bytes asked for
    uint64_t length = 0; // bytes the call returned
    int64_t tNs = 0; // since the command started
    int pid = 0; // the task (thread id)
    const char *call = "read"; // read, pread64, readv, preadv, preadv2, sendfile, splice, copy_file_range
};

struct ProcessTreeMeasurement {
    double seconds = 0; // from fork to the last task reaped
    double user = 0; // CPU seconds of every descendant
    double sys = 0;
    uint64_t maxRssBytes = 0; // the largest peak RSS of any descendant
    ProcIo io; // summed over every task at its exit
    int tasks = 0; // processes and threads that ran
    int exitStatus = 0; // of the command itself, as waitpid gives it
    // Traced runs only:
    std::vector<TargetRead> targetReads;
    bool mapsTarget = false; // mmap of the target: its bytes arrive by page faults, not calls
    bool usesIoUring = false; // io_uring reads are not seen
    QString stderrTail; // the last lines the command wrote on standard error
};

// Runs the command to its end. A command that cannot be started, or is killed, is an error
// naming it; a non-zero exit is not (the caller decides). Cancel ends the whole tree at once.
Result<ProcessTreeMeasurement> measureProcessTree(const ProcessTreeRequest &request, const CancelFlag &cancel);

// "exit status 3", "killed by signal 9 (Killed)".
QString waitStatusText(int status);
// A command that exited non-zero or was killed is an error: `label`, its status, its last words.
Result<void> requireSuccess(const ProcessTreeMeasurement &measured, const QString &label);

} // namespace asc
