// SPDX-License-Identifier: MIT
#include "bench_runner.h"

#include "cache_control.h"
#include "machine_info.h"
#include "io/proc_io.h"
#include "units.h"
#include "version.h"

#include <chrono>
#include <sys/resource.h>

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

static double seconds(const timeval &tv)
{
    return double(tv.tv_sec) + double(tv.tv_usec) / 1e6;
}

// One run; what the strategy noted about it (a fallback it took) goes to `note`.
static Result<Sample> measure(const ReadStrategy &strategy, const ReadTarget &target, size_t buffer, const CancelFlag &cancel, QString *note)
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

Result<BenchResult> runBench(const BenchConfig &config, const OpenedTarget &opened, const CancelFlag &cancel,
                             const BenchCallbacks &callbacks)
{
    ReadTarget target = opened.target;
    target.outputDir = config.outputDir;
    auto selection = selectStrategies(config.strategies, target);
    if (!selection)
        return std::move(selection).error();
    if (selection->strategies.empty())
        return Error::make(ErrorKind::Usage, target.spec,
                           QStringLiteral("no strategy applies to this target: ") + selection->skipped.join(QStringLiteral("; ")));
    BenchResult result;
    result.version = programVersion();
    result.machine = machineInfo(opened.cachePath);
    result.spec = target.spec;
    result.targetBytes = target.source->size();
    result.config = config;
    result.config.strategies.clear();
    for (const auto &s : selection->strategies)
        result.config.strategies << s->name();

    const int perPoint = std::max(0, config.warmup) + std::max(1, config.runs);
    const int total = std::max(1, config.passes) * int(config.buffers.size()) * int(selection->strategies.size()) * perPoint;
    int done = 0;
    for (int pass = 1; pass <= std::max(1, config.passes); ++pass) {
        for (uint64_t buffer : config.buffers) {
            // Runs are interleaved across strategies at each size, so drift on a noisy machine
            // spreads over all of them instead of biasing one.
            std::vector<BenchPoint> points(selection->strategies.size());
            for (size_t i = 0; i < points.size(); ++i) {
                points[i].strategy = selection->strategies[i]->name();
                points[i].buffer = buffer;
                points[i].cache = config.cache;
                points[i].pass = pass;
            }
            std::vector<QString> strategyNotes(points.size());
            for (int run = 0; run < perPoint; ++run) {
                for (size_t i = 0; i < points.size(); ++i) {
                    const ReadStrategy &strategy = *selection->strategies[i];
                    if (cancel.isCancelled())
                        return Error::cancelled();
                    if (callbacks.progress)
                        callbacks.progress(done, total, QStringLiteral("%1 %2, %3 %4 of %5, pass %6").arg(strategy.name(), sizeLabel(buffer), run < config.warmup ? QStringLiteral("warm-up") : QStringLiteral("run")).arg(run < config.warmup ? run + 1 : run - config.warmup + 1).arg(run < config.warmup ? config.warmup : config.runs).arg(pass));
                    if (config.cache == CacheMode::Cold) {
                        auto evicted = evictFromPageCache(opened.cachePath);
                        if (!evicted)
                            return std::move(evicted).error();
                        if (!evicted->verified() && !points[i].note.contains(QStringLiteral("eviction")))
                            points[i].note = evicted->residentFraction < 0
                                                 ? QStringLiteral("cache eviction could not be verified")
                                                 : QStringLiteral("cache eviction left %1% resident").arg(evicted->residentFraction * 100, 0, 'f', 1);
                    }
                    QString note;
                    auto sample = measure(strategy, target, size_t(buffer), cancel, &note);
                    ++done;
                    if (!sample)
                        return std::move(sample).error();
                    // What the strategy said (a fallback: buffered instead of O_DIRECT, threads
                    // instead of io_uring) goes with the point: its numbers are of what really ran.
                    strategyNotes[i] = note;
                    if (run >= config.warmup)
                        points[i].runs.push_back(*sample);
                }
            }
            for (size_t i = 0; i < points.size(); ++i) {
                BenchPoint &point = points[i];
                if (!strategyNotes[i].isEmpty())
                    point.note = point.note.isEmpty() ? strategyNotes[i] : point.note + QStringLiteral("; ") + strategyNotes[i];
                std::vector<double> rates;
                for (const Sample &s : point.runs)
                    rates.push_back(s.seconds > 0 ? double(s.bytes) / 1048576.0 / s.seconds : 0);
                point.mibps = summarise(rates);
                if (callbacks.point)
                    callbacks.point(point);
                result.points.push_back(std::move(point));
            }
        }
    }
    if (callbacks.progress)
        callbacks.progress(total, total, QStringLiteral("done"));
    return result;
}

} // namespace asc
