// SPDX-License-Identifier: MIT
#include "contender.h"

#include "bench/command/command_run.h"
#include "bench/statistics.h"
#include "io/units.h"
#include "sandbox/proc_io.h"

#include <chrono>
#include <sys/resource.h>
#include <sys/wait.h>

namespace asc {

namespace {

double seconds(const timeval &tv)
{
    return double(tv.tv_sec) + double(tv.tv_usec) / 1e6;
}

// One run; what the strategy noted about it (a fallback it took) goes to `note`.
Result<Sample> measureStrategy(const ReadStrategy &strategy, const ReadTarget &target, size_t buffer, const CancelFlag &cancel, QString *note)
{
    rusage before{}, after{};
    const auto ioBefore = readProcIo();
    getrusage(RUSAGE_SELF, &before);
    const auto start = std::chrono::steady_clock::now();
    auto outcome = strategy.run(target, buffer, cancel, {});
    const auto end = std::chrono::steady_clock::now();
    getrusage(RUSAGE_SELF, &after);
    const auto ioAfter = readProcIo();
    if (!outcome)
        return std::move(outcome).error();
    if (outcome->bytes != strategy.expectedBytes(target))
        return Error::make(ErrorKind::Format, target.spec,
                           QStringLiteral("strategy %1 read %2 bytes, expected %3").arg(strategy.name()).arg(outcome->bytes).arg(strategy.expectedBytes(target)));
    *note = outcome->note;
    Sample s;
    s.seconds = std::chrono::duration<double>(end - start).count();
    s.bytes = outcome->bytes;
    s.user = seconds(after.ru_utime) - seconds(before.ru_utime);
    s.sys = seconds(after.ru_stime) - seconds(before.ru_stime);
    s.syscalls = outcome->syscalls;
    if (ioBefore && ioAfter) {
        s.readBytes = int64_t(ioAfter->readBytes - ioBefore->readBytes);
        s.rchar = int64_t(ioAfter->rchar - ioBefore->rchar);
    }
    return s;
}

// What one traced (untimed) run of a command saw on the target, kept with its point.
struct CommandTrace {
    int64_t calls = 0;
    int64_t bytes = 0;
    double requestMedian = -1;
    bool mapsTarget = false;
    bool usesIoUring = false;
};

Result<CommandTrace> traceCommand(const CommandTemplate &command, const ReadTarget &target, uint64_t buffer, const CancelFlag &cancel)
{
    auto run = runCommand(command, target, buffer, true, cancel);
    if (!run)
        return std::move(run).error();
    CommandTrace trace;
    std::vector<double> requests;
    for (const TargetRead &r : run->tree.targetReads) {
        ++trace.calls;
        trace.bytes += int64_t(r.length);
        requests.push_back(double(r.request));
    }
    if (!requests.empty())
        trace.requestMedian = summarise(requests).median;
    trace.mapsTarget = run->tree.mapsTarget;
    trace.usesIoUring = run->tree.usesIoUring;
    return trace;
}

Result<Sample> measureCommand(const CommandTemplate &command, const ReadTarget &target, uint64_t buffer, const CommandTrace &trace,
                              const CancelFlag &cancel)
{
    auto run = runCommand(command, target, buffer, false, cancel);
    if (!run)
        return std::move(run).error();
    const ProcessTreeMeasurement &m = run->tree;
    Sample s;
    s.seconds = m.seconds;
    // Throughput counts what the tree read from the target (its traced run); a reader the trace
    // cannot see (mmap, io_uring) is credited with the whole target.
    s.bytes = trace.bytes > 0 ? uint64_t(trace.bytes) : target.source->size();
    s.user = m.user;
    s.sys = m.sys;
    s.syscalls = m.io.syscr;
    s.rchar = int64_t(m.io.rchar);
    s.readBytes = int64_t(m.io.readBytes);
    s.maxRssBytes = int64_t(m.maxRssBytes);
    s.writeCalls = int64_t(m.io.syscw);
    s.writeBytes = int64_t(m.io.wchar);
    s.storageWriteBytes = int64_t(m.io.writeBytes);
    s.exitStatus = WEXITSTATUS(m.exitStatus);
    return s;
}

class StrategyContender final : public Contender {
public:
    StrategyContender(const ReadStrategy &strategy, const ReadTarget &target)
        : strategy_(strategy),
          target_(target)
    {
    }

    Result<BenchPoint> startPoint(uint64_t buffer, const std::function<void(const QString &)> &, const CancelFlag &) override
    {
        BenchPoint point;
        point.strategy = strategy_.name();
        point.buffer = buffer;
        return point;
    }

    Result<Sample> measure(uint64_t buffer, const CancelFlag &cancel, QString *note) override
    {
        return measureStrategy(strategy_, target_, size_t(buffer), cancel, note);
    }

private:
    const ReadStrategy &strategy_;
    const ReadTarget &target_;
};

class CommandContender final : public Contender {
public:
    CommandContender(const CommandTemplate &command, const ReadTarget &target)
        : command_(command),
          target_(target)
    {
    }

    Result<BenchPoint> startPoint(uint64_t buffer, const std::function<void(const QString &)> &say, const CancelFlag &cancel) override
    {
        BenchPoint point;
        point.strategy = command_.name;
        point.buffer = buffer;
        point.isCommand = true;
        point.commandTemplate = command_.text;
        point.command = command_.expandedText(target_.filePath, buffer);
        if (!traces_.count(buffer)) { // one traced run per size, over all passes
            say(QStringLiteral("%1 %2, traced run").arg(command_.name, sizeLabel(buffer)));
            auto trace = traceCommand(command_, target_, buffer, cancel);
            if (!trace)
                return std::move(trace).error();
            traces_[buffer] = *trace;
        }
        const CommandTrace &trace = traces_[buffer];
        point.requestBytesMedian = trace.requestMedian;
        point.targetReadCalls = trace.calls;
        point.targetReadBytes = trace.bytes;
        if (trace.mapsTarget)
            point.note = QStringLiteral("maps the target (mmap): page faults are not counted as reads");
        else if (trace.usesIoUring)
            point.note = QStringLiteral("uses io_uring: its reads are not seen by the trace");
        return point;
    }

    Result<Sample> measure(uint64_t buffer, const CancelFlag &cancel, QString *) override
    {
        return measureCommand(command_, target_, buffer, traces_[buffer], cancel);
    }

private:
    const CommandTemplate &command_;
    const ReadTarget &target_;
    std::map<uint64_t, CommandTrace> traces_;
};

} // namespace

std::unique_ptr<Contender> strategyContender(const ReadStrategy &strategy, const ReadTarget &target)
{
    return std::make_unique<StrategyContender>(strategy, target);
}

std::unique_ptr<Contender> commandContender(const CommandTemplate &command, const ReadTarget &target)
{
    return std::make_unique<CommandContender>(command, target);
}

} // namespace asc
