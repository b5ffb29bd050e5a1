// SPDX-License-Identifier: MIT
#pragma once
// Whether a worker is getting anywhere: one definition for the CLI's supervision of its forked
// worker and the window's channel to its worker process. Progress is a byte read or written (or
// an answer, which the channel reports). A worker that has used kLoopCpuSeconds of CPU since its
// last progress is working in a loop: stalled, and stopped — counted in its own CPU time, so a
// loaded machine (which gives it little of the wall clock) stops it as soon as an idle one. One
// quiet for the limit with less CPU is waiting (a slow disk, a reader of its output that does not
// read): no reason to stop it. How long it has been quiet (what the window shows and asks about)
// counts either way.

#include <chrono>
#include <cstdint>
#include <sys/types.h>

namespace asc {

// CPU time a process has used, in clock ticks (utime + stime of /proc/PID/stat); -1 if unknown.
int64_t processCpuTicks(pid_t pid);

class ProgressWatch {
public:
    using Clock = std::chrono::steady_clock;
    // CPU seconds without progress that make a loop (libarchive's loops on hostile RAR5 and xar).
    static constexpr int kLoopCpuSeconds = 5;
    // `limitSeconds` 0: never stalled.
    ProgressWatch(int limitSeconds, Clock::time_point now, uint64_t ioBytes, int64_t cpuTicks);

    enum class Verdict { Progress,
                         Quiet,
                         Waiting,
                         Stalled };
    // Looks at the process's counters at `now` (bytes read and written, CPU ticks).
    Verdict look(Clock::time_point now, uint64_t ioBytes, int64_t cpuTicks);
    // Progress the counters do not show (an answer arrived).
    void progressed(Clock::time_point now, int64_t cpuTicks);
    // Seconds without progress, the waiting included.
    int quietSeconds(Clock::time_point now) const;

private:
    int limitSeconds_;
    long ticksPerSecond_;
    uint64_t lastIo_;
    Clock::time_point lastProgress_; // or the start of the current window
    Clock::time_point quietSince_;
    int64_t cpuAtProgress_; // CPU ticks at the last progress
};

} // namespace asc
