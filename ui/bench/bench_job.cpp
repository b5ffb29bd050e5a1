// SPDX-License-Identifier: MIT
#include "bench_job.h"

#include <QObject>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

namespace asc::ui {

BenchJob startBench(QObject *receiver, BenchConfig config, std::function<void(BenchOutcome)> finished, std::function<void(BenchProgress)> progress)
{
    // Posted to `receiver`, not to qApp: when it is destroyed, Qt drops the calls still queued for
    // it (it waits for the run in its destructor, so none is posted later).
    QObject *context = receiver;
    BenchJob job;
    CancelFlag cancel = job.cancel; // shares the flag with the caller
    job.future = QtConcurrent::run([context, config, finished, progress, cancel](QPromise<BenchPoint> &promise) {
        BenchOutcome outcome;
        auto target = openReadTarget(config.spec);
        if (!target) {
            outcome.error = target.error();
        } else {
            BenchCallbacks callbacks;
            callbacks.point = [&](const BenchPoint &p) { promise.addResult(p); };
            callbacks.progress = [&](int done, int total, const QString &what) {
                promise.setProgressRange(0, total);
                promise.setProgressValueAndText(done, what);
                if (progress)
                    QMetaObject::invokeMethod(context, [progress, done, total, what] { progress({done, total, what}); });
            };
            auto result = runBench(config, *target, cancel, callbacks);
            if (result)
                outcome.result = std::move(result).value();
            else
                outcome.error = result.error();
        }
        if (finished)
            QMetaObject::invokeMethod(context, [finished, outcome] { finished(outcome); });
    });
    return job;
}

} // namespace asc::ui
