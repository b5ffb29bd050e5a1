// SPDX-License-Identifier: MIT
#pragma once
// Locks the calling process down before it parses an untrusted file: a memory ceiling
// (RLIMIT_AS), few descriptors, no core files, no new privileges, death with its parent, and a
// seccomp filter (libseccomp) that allows a list of calls — memory, threads, reading and writing
// descriptors it already holds, its socket, time, io_uring on rings made beforehand — and fails
// every other with EPERM. So it cannot start programs, make or use network sockets, trace or
// signal other processes, create, change or remove files, open anything for writing, or set up
// io_uring (a ring of its own could open files behind the filter's back). A library that tries
// one (libarchive starting an external decompressor) gets a clean error, not a kill.
//
// What it does not stop: reading files the user can read, unless mayOpenFiles is false (then
// nothing can be opened at all), and a kernel bug reachable through the calls it allows.

#include "io/result.h"
#include "sandbox/ring_pool.h"

#include <cstdint>

namespace asc {

struct LockdownLimits {
    uint64_t memoryBytes = uint64_t(2) << 30; // address space, not resident memory
    int maxOpenFiles = 256;
    // False: open(2) of any path fails too, reading included (the GUI's worker: its parent opens
    // what the file needs and passes the descriptors).
    bool mayOpenFiles = true;
    // True: execve is allowed (the external tools' jail, whose Landlock rules name the one
    // program it starts; starting it is the last thing the jail does).
    bool mayExecute = false;
    // io_uring rings made before the lockdown for the benchmarks' readers (sandbox/ring_pool.h).
    int plainRings = 0;
    int polledRings = 0;
};

Result<void> lockDown(const LockdownLimits &limits);
// False in an AddressSanitizer build, whose shadow memory needs more address space than any limit.
bool lockdownHasMemoryLimit();

} // namespace asc
