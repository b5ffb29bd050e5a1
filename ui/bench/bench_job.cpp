// SPDX-License-Identifier: MIT
#include "io/task_pool.h"
#include "bench_job.h"

#include "remote/bench_request.h"
#include "open/spec.h"
#include "open_job.h"

#include <QObject>
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

BenchJob startBench(QObject *receiver, BenchConfig config, std::function<void(const BenchEvent &)> heard)
{
    // Posted to `receiver`, not to qApp: when it is destroyed, Qt drops the calls still queued for
    // it (it waits for the run in its destructor, so none is posted later). One queue, so the
    // events arrive in the order they were posted.
    QObject *context = receiver;
    BenchJob job;
    CancelFlag cancel = job.cancel; // shares the flag with the caller
    auto worker = startBenchWorker(config);
    job.future = QtConcurrent::run(taskPool(), [context, config, heard, cancel, worker = std::move(worker)]() mutable {
        auto post = [context, heard](BenchEvent event) { QMetaObject::invokeMethod(context, [heard, event = std::move(event)] { heard(event); }); };
        BenchCallbacks callbacks;
        callbacks.point = [&](const BenchPoint &p) { post(p); };
        callbacks.progress = [&](int done, int total, const QString &what) { post(BenchProgress{done, total, what}); };
        auto result = worker ? runSweep(*worker, config, cancel, callbacks) : Result<BenchResult>(worker.error());
        worker = WorkerPtr{}; // the bench's worker ends with its run, before the window hears of the end
        BenchOutcome outcome;
        if (result)
            outcome.result = std::move(result).value();
        else
            outcome.error = result.error();
        post(std::move(outcome));
    });
    return job;
}

} // namespace asc::ui
