// SPDX-License-Identifier: MIT
#pragma once
// A benchmark run on a worker thread: each finished point is a result of the future (for the live
// chart), progress carries "point N of M" with an ETA, cancelling the future stops the run within
// one buffer read. The final BenchResult comes through the callback on the UI thread. With the
// sandbox on (the default) the target is parsed and read in a worker process of the bench's own.

#include "bench/bench_runner.h"
#include "remote/worker_channel.h"

#include <QFuture>

namespace asc::ui {

struct BenchProgress {
    int done = 0;
    int total = 0;
    QString what;
};

struct BenchOutcome {
    std::optional<BenchResult> result;
    std::optional<Error> error;
};

struct BenchJob {
    QFuture<BenchPoint> future; // one result per finished point
    CancelFlag cancel; // set it (with future.cancel()) to stop within one buffer read
};

// With the sandbox on, a worker for `config`'s target, with the rings and scratch folder a bench
// needs; null with it off. Start it on the UI thread (a worker dies with the thread that started it).
Result<WorkerPtr> startBenchWorker(const BenchConfig &config);
// The sweep: in `worker`, or in this process when it is null. Blocks.
Result<BenchResult> runSweep(const WorkerPtr &worker, const BenchConfig &config, const CancelFlag &cancel, const BenchCallbacks &callbacks);

// `finished` and `progress` run on `receiver`'s thread, never after `receiver` is destroyed: its
// destructor must wait for `future`. Call it on the UI thread.
BenchJob startBench(QObject *receiver, BenchConfig config, std::function<void(BenchOutcome)> finished, std::function<void(BenchProgress)> progress);

} // namespace asc::ui
