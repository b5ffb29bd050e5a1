// SPDX-License-Identifier: MIT
#include "progress_watch.h"

#include <QFile>
#include <QList>
#include <algorithm>
#include <unistd.h>

namespace asc {

int64_t processCpuTicks(pid_t pid)
{
    QFile file(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray stat = file.readAll();
    // Fields after the command name (which may hold spaces), counted from field 3 (state).
    const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    return fields.size() > 12 ? fields[11].toLongLong() + fields[12].toLongLong() : -1;
}

ProgressWatch::ProgressWatch(int limitSeconds, Clock::time_point now, uint64_t ioBytes, int64_t cpuTicks)
    : limitSeconds_(limitSeconds),
      ticksPerSecond_(::sysconf(_SC_CLK_TCK)),
      lastIo_(ioBytes),
      lastProgress_(now),
      quietSince_(now),
      cpuAtProgress_(cpuTicks)
{
}

void ProgressWatch::progressed(Clock::time_point now, int64_t cpuTicks)
{
    lastProgress_ = quietSince_ = now;
    cpuAtProgress_ = cpuTicks;
}

ProgressWatch::Verdict ProgressWatch::look(Clock::time_point now, uint64_t ioBytes, int64_t cpuTicks)
{
    if (ioBytes != lastIo_) {
        lastIo_ = ioBytes;
        progressed(now, cpuTicks);
        return Verdict::Progress;
    }
    if (limitSeconds_ <= 0)
        return Verdict::Quiet;
    if (cpuTicks >= 0 && cpuTicks - cpuAtProgress_ >= ticksPerSecond_ * std::min(kLoopCpuSeconds, limitSeconds_))
        return Verdict::Stalled;
    if (now - lastProgress_ < std::chrono::seconds(limitSeconds_))
        return Verdict::Quiet;
    lastProgress_ = now; // a new window of waiting; quietSince_ and the CPU count stay
    return Verdict::Waiting;
}

int ProgressWatch::quietSeconds(Clock::time_point now) const
{
    return int(std::chrono::duration_cast<std::chrono::seconds>(now - quietSince_).count());
}

} // namespace asc
