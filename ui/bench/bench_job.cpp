// SPDX-License-Identifier: MIT
#include "io/task_pool.h"
#include "bench_job.h"

#include "remote/bench_request.h"
#include "open/spec.h"
#include "open_job.h"

#include <QObject>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

namespace asc::ui {

Result<WorkerPtr> startBenchWorker(const BenchConfig &config)
{
    // The user's own commands are programs the worker's lockdown cannot start: such a run is
    // made in this process (the commands themselves are the user's choice to run).
    if (!sandbox().enabled || !config.commands.empty())
        return WorkerPtr{};
    WorkerSettings settings = sandbox().worker;
    reserveBenchRings(settings.limits);
    settings.scratchDir = config.outputDir;
    return WorkerChannel::start(splitSpec(config.spec).file, settings);
}

Result<BenchResult> runSweep(const WorkerPtr &worker, const BenchConfig &config, const CancelFlag &cancel, const BenchCallbacks &callbacks)
{
    if (worker)
        return runBenchInWorker(*worker, config, cancel, callbacks);
    auto target = openReadTarget(config.spec);
    if (!target)
        return std::move(target).error();
    return runBench(config, *target, cancel, callbacks);
}

BenchJob startBench(QObject *receiver, BenchConfig config, std::function<void(BenchOutcome)> finished, std::function<void(BenchProgress)> progress)
{
    // Posted to `receiver`, not to qApp: when it is destroyed, Qt drops the calls still queued for
    // it (it waits for the run in its destructor, so none is posted later).
    QObject *context = receiver;
    BenchJob job;
    CancelFlag cancel = job.cancel; // shares the flag with the caller
    auto worker = startBenchWorker(config);
    job.future = QtConcurrent::run(taskPool(), [context, config, finished, progress, cancel, worker = std::move(worker)](QPromise<BenchPoint> &promise) mutable {
        BenchOutcome outcome;
        BenchCallbacks callbacks;
        callbacks.point = [&](const BenchPoint &p) { promise.addResult(p); };
        callbacks.progress = [&](int done, int total, const QString &what) {
            promise.setProgressRange(0, total);
            promise.setProgressValueAndText(done, what);
            if (progress)
                QMetaObject::invokeMethod(context, [progress, done, total, what] { progress({done, total, what}); });
        };
        auto result = worker ? runSweep(*worker, config, cancel, callbacks) : Result<BenchResult>(worker.error());
        worker = WorkerPtr{}; // the bench's worker ends with its run, before the window hears of the end
        if (result)
            outcome.result = std::move(result).value();
        else
            outcome.error = result.error();
        if (finished)
            QMetaObject::invokeMethod(context, [finished, outcome] { finished(outcome); });
    });
    return job;
}

} // namespace asc::ui
