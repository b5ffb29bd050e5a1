// SPDX-License-Identifier: MIT
#include "bench_runner.h"

#include "bench/contender.h"

#include "cache_control.h"
#include "command/command_run.h"
#include "machine_info.h"
#include "io/units.h"
#include "io/version.h"

#include <map>

namespace asc {

QStringList defaultStrategyNames(const ReadTarget &target)
{
    // A pxar archive: the decoder/accessor x sync/async comparison (pxar compare-read).
    if (!findReadStrategy(QStringLiteral("pxar-decoder-sync"))->notApplicable(target).isEmpty()) {
    } else {
        return {QStringLiteral("pxar-decoder-sync"), QStringLiteral("pxar-decoder-async"), QStringLiteral("pxar-accessor-sync"),
                QStringLiteral("pxar-accessor-async")};
    }
    // A sweep that answers the common questions in about a minute on a 1 GiB file.
    if (target.filePath.isEmpty())
        return {QStringLiteral("source"), QStringLiteral("uring-qd4"), QStringLiteral("buffered-stream-copy"),
                QStringLiteral("buffered-stream-zero-copy")};
    return {QStringLiteral("read"), QStringLiteral("pread"), QStringLiteral("mmap"), QStringLiteral("uring-qd4"),
            QStringLiteral("buffered-stream-zero-copy")};
}

Result<StrategySelection> selectStrategies(const QStringList &names, const ReadTarget &target)
{
    StrategySelection selection;
    const QStringList wanted = names.isEmpty() ? defaultStrategyNames(target) : names;
    for (const QString &name : wanted) {
        StrategyPtr strategy = findReadStrategy(name);
        if (!strategy)
            return Error::make(ErrorKind::Usage, target.spec,
                               QStringLiteral("unknown strategy '%1' (see `archivescope-cli strategies`)").arg(name));
        const QString why = strategy->notApplicable(target);
        if (!why.isEmpty()) {
            selection.skipped << name + QStringLiteral(": ") + why;
            continue;
        }
        selection.strategies.push_back(strategy);
    }
    return selection;
}

Result<StrategySelection> strategiesToRun(const BenchConfig &config, const ReadTarget &target)
{
    // With commands, strategies run only when named: the user's own reader is the subject.
    if (!config.commands.empty() && config.strategies.isEmpty())
        return StrategySelection{};
    return selectStrategies(config.strategies, target);
}

Result<std::vector<uint64_t>> parseSizeList(const QString &text)
{
    std::vector<uint64_t> sizes;
    auto bad = [&] { return Error::make(ErrorKind::Usage, {}, QStringLiteral("bad size list '%1' (e.g. 4K:16M or 64K,1M)").arg(text)); };
    if (text.contains(QLatin1Char(':'))) {
        const auto from = parseSize(text.section(QLatin1Char(':'), 0, 0));
        const auto to = parseSize(text.section(QLatin1Char(':'), 1, 1));
        if (!from || !to || *from == 0 || *from > *to || *to > (1ULL << 40))
            return bad();
        uint64_t size = 1;
        while (size < *from)
            size <<= 1;
        for (; size <= *to; size <<= 1)
            sizes.push_back(size);
    } else {
        for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const auto size = parseSize(part);
            if (!size || *size == 0 || *size > (1ULL << 40))
                return bad();
            sizes.push_back(*size);
        }
    }
    if (sizes.empty())
        return bad();
    return sizes;
}

static Result<void> runPrepare(const QString &prepare, const CancelFlag &cancel)
{
    if (prepare.isEmpty())
        return {};
    ProcessTreeRequest request;
    request.argv = {QStringLiteral("/bin/sh"), QStringLiteral("-c"), prepare};
    request.label = QStringLiteral("--prepare '%1'").arg(prepare);
    auto run = measureProcessTree(request, cancel);
    if (!run)
        return std::move(run).error();
    return requireSuccess(*run, request.label);
}

// What the traced runs say about each command, for the summary: a buffer it ignores, a target
// it does not read through calls, or reads only in part.
static QStringList commandNotes(const BenchResult &result)
{
    QStringList notes;
    for (const CommandTemplate &command : result.config.commands) {
        std::map<uint64_t, double> requests;
        QStringList partial;
        for (const BenchPoint &p : result.points) {
            if (!p.isCommand || p.strategy != command.name || p.pass != 1)
                continue;
            requests[p.buffer] = p.requestBytesMedian;
            if (p.targetReadBytes >= 0 && uint64_t(p.targetReadBytes) != result.targetBytes && p.targetReadBytes > 0)
                partial << QStringLiteral("%1 at %2").arg(sizeLabel(uint64_t(p.targetReadBytes)), sizeLabel(p.buffer));
        }
        bool same = requests.size() >= 2 && requests.begin()->second > 0;
        for (const auto &[buffer, median] : requests)
            same = same && median == requests.begin()->second;
        if (same)
            notes << QStringLiteral("%1 ignores the buffer: its reads are %2 bytes at every size").arg(command.name).arg(requests.begin()->second, 0, 'f', 0);
        if (!partial.isEmpty())
            notes << QStringLiteral("%1 read part of the target (%2 bytes): %3").arg(command.name).arg(result.targetBytes).arg(partial.join(QStringLiteral(", ")));
    }
    return notes;
}

// A point's statistics from its runs, and what its strategy said about them.
static void finishPoint(BenchPoint &point, const QString &note)
{
    if (!note.isEmpty())
        point.note = point.note.isEmpty() ? note : point.note + QStringLiteral("; ") + note;
    std::vector<double> rates;
    for (const Sample &s : point.runs)
        rates.push_back(s.seconds > 0 ? double(s.bytes) / 1048576.0 / s.seconds : 0);
    point.mibps = summarise(rates);
}

static Result<BenchResult> runSelected(const BenchConfig &config, const OpenedTarget &opened, const ReadTarget &target,
                                       const StrategySelection &selection, const CancelFlag &cancel, const BenchCallbacks &callbacks)
{
    BenchResult result;
    result.skipped = selection.skipped;
    result.version = programVersion();
    result.machine = machineInfo(opened.cachePath);
    result.spec = target.spec;
    result.targetBytes = target.source->size();
    result.config = config;
    result.config.strategies.clear();
    for (const auto &s : selection.strategies)
        result.config.strategies << s->name();

    // Our strategies, then the user's commands: each point is measured the same way.
    std::vector<std::unique_ptr<Contender>> contenders;
    for (const auto &s : selection.strategies)
        contenders.push_back(strategyContender(*s, target));
    for (const CommandTemplate &command : config.commands)
        contenders.push_back(commandContender(command, target));
    const int perPoint = std::max(0, config.warmup) + std::max(1, config.runs);
    const int total = std::max(1, config.passes) * int(config.buffers.size()) * int(contenders.size()) * perPoint;
    int done = 0;
    auto say = [&](const QString &what) {
        if (callbacks.progress)
            callbacks.progress(done, total, what);
    };
    for (int pass = 1; pass <= std::max(1, config.passes); ++pass) {
        for (uint64_t buffer : config.buffers) {
            // Runs are interleaved across contenders at each size, so drift on a noisy machine
            // spreads over all of them instead of biasing one.
            std::vector<BenchPoint> points;
            for (const auto &contender : contenders) {
                auto point = contender->startPoint(buffer, say, cancel);
                if (!point)
                    return std::move(point).error();
                point->cache = config.cache;
                point->pass = pass;
                points.push_back(std::move(*point));
            }
            std::vector<QString> strategyNotes(points.size());
            // Cancelled at this size: the points with runs measured are kept, of fewer runs and
            // said so (only whole sizes were kept before, and a long point lost everything).
            auto endCancelled = [&]() -> Result<BenchResult> {
                for (size_t i = 0; i < points.size(); ++i) {
                    if (points[i].runs.empty())
                        continue;
                    const QString partial = QStringLiteral("cancelled after %1 of %2 runs").arg(points[i].runs.size()).arg(std::max(1, config.runs));
                    finishPoint(points[i], strategyNotes[i].isEmpty() ? partial : strategyNotes[i] + QStringLiteral("; ") + partial);
                    if (callbacks.point)
                        callbacks.point(points[i]);
                }
                return Error::cancelled();
            };
            for (int run = 0; run < perPoint; ++run) {
                for (size_t i = 0; i < points.size(); ++i) {
                    if (cancel.isCancelled())
                        return endCancelled();
                    const bool warmup = run < config.warmup;
                    say(QStringLiteral("%1 %2, %3 %4 of %5, pass %6")
                            .arg(points[i].strategy, sizeLabel(buffer), warmup ? QStringLiteral("warm-up") : QStringLiteral("run"))
                            .arg(warmup ? run + 1 : run - config.warmup + 1)
                            .arg(warmup ? config.warmup : config.runs)
                            .arg(pass));
                    if (config.cache == CacheMode::Cold) {
                        auto evicted = evictFromPageCache(opened.cachePath);
                        if (!evicted)
                            return std::move(evicted).error();
                        if (!evicted->verified() && !points[i].note.contains(QStringLiteral("eviction")))
                            points[i].note = evicted->residentFraction < 0
                                                 ? QStringLiteral("cache eviction could not be verified")
                                                 : QStringLiteral("cache eviction left %1% resident").arg(evicted->residentFraction * 100, 0, 'f', 1);
                    }
                    if (auto prepared = runPrepare(config.prepare, cancel); !prepared)
                        return std::move(prepared).error();
                    QString note;
                    auto sample = contenders[i]->measure(buffer, cancel, &note);
                    ++done;
                    if (!sample && sample.error().kind == ErrorKind::Cancelled)
                        return endCancelled();
                    if (!sample)
                        return std::move(sample).error();
                    // What the strategy said (a fallback: buffered instead of O_DIRECT, threads
                    // instead of io_uring) goes with the point: its numbers are of what really ran.
                    strategyNotes[i] = note;
                    if (!warmup)
                        points[i].runs.push_back(*sample);
                }
            }
            for (size_t i = 0; i < points.size(); ++i) {
                BenchPoint &point = points[i];
                finishPoint(point, strategyNotes[i]);
                if (callbacks.point)
                    callbacks.point(point);
                result.points.push_back(std::move(point));
            }
        }
    }
    result.notes = commandNotes(result);
    if (callbacks.progress)
        callbacks.progress(total, total, QStringLiteral("done"));
    return result;
}

Result<BenchResult> runBench(const BenchConfig &config, const OpenedTarget &opened, const CancelFlag &cancel,
                             const BenchCallbacks &callbacks)
{
    ReadTarget target = opened.target;
    target.outputDir = config.outputDir;
    auto selection = strategiesToRun(config, target);
    if (!selection)
        return std::move(selection).error();
    // What cannot run on this target is left out and said so; the rest runs.
    BenchConfig runnable = config;
    runnable.commands.clear();
    for (const CommandTemplate &command : config.commands) {
        if (auto usable = checkCommandTarget(command, target); !usable)
            selection->skipped << usable.error().message; // names the command
        else
            runnable.commands.push_back(command);
    }
    if (selection->strategies.empty() && runnable.commands.empty())
        return Error::make(ErrorKind::Usage, target.spec,
                           QStringLiteral("nothing to run on this target: ") + selection->skipped.join(QStringLiteral("; ")));
    return runSelected(runnable, opened, target, *selection, cancel, callbacks);
}

} // namespace asc
