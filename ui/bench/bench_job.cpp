// SPDX-License-Identifier: MIT
#include "bench_job.h"

#include <QCoreApplication>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

namespace asc::ui {

BenchJob startBench(BenchConfig config, std::function<void(BenchOutcome)> finished, std::function<void(BenchProgress)> progress)
{
    BenchJob job;
    CancelFlag cancel = job.cancel; // shares the flag with the caller
    job.future = QtConcurrent::run([config, finished, progress, cancel](QPromise<BenchPoint> &promise) {
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
                    QMetaObject::invokeMethod(qApp, [progress, done, total, what] { progress({done, total, what}); });
            };
            auto result = runBench(config, *target, cancel, callbacks);
            if (result)
                outcome.result = std::move(result).value();
            else
                outcome.error = result.error();
        }
        if (finished)
            QMetaObject::invokeMethod(qApp, [finished, outcome] { finished(outcome); });
    });
    return job;
}

} // namespace asc::ui
