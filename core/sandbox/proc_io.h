// SPDX-License-Identifier: MIT
#pragma once
// Counters from /proc/<self|thread-self|PID>/io: what the kernel saw, independent of what a strategy
// claims (read system calls, bytes passed to read calls, bytes fetched from storage).

#include <cstdint>
#include <optional>

namespace asc {

struct ProcIo {
    uint64_t rchar = 0; // bytes passed through read-type calls
    uint64_t wchar = 0;
    uint64_t syscr = 0; // read-type system calls
    uint64_t syscw = 0;
    uint64_t readBytes = 0; // bytes the storage layer fetched
    uint64_t writeBytes = 0; // bytes sent to the storage layer
};

enum class ProcIoScope { Process,
                         Thread };
// Empty where /proc has no io file (containers without it, other kernels).
std::optional<ProcIo> readProcIo(ProcIoScope scope = ProcIoScope::Process);
// From an open io file (of any task), read from its start.
std::optional<ProcIo> readProcIoFile(int fd);
// Another process's (a child's, while it runs or before it is reaped).
std::optional<ProcIo> readProcIo(int pid);

} // namespace asc
