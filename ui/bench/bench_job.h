// SPDX-License-Identifier: MIT
#pragma once
// A benchmark run on a worker thread, heard through one channel on the UI thread: each finished
// point, each run's progress and the end arrive as events, in the order they happened (a point
// can no longer overtake the end, or the end a point). Cancelling stops the run within one buffer
// read. With the sandbox on (the default) the target is parsed and read in a worker process of the
// bench's own.

#include "bench/bench_runner.h"
#include "remote/worker_channel.h"

#include <QFuture>
#include <variant>

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

// What a run says, in order: points and progress while it goes, then its outcome, last.
using BenchEvent = std::variant<BenchPoint, BenchProgress, BenchOutcome>;

struct BenchJob {
    QFuture<void> future; // the run on our pool: wait for it before the receiver goes
    CancelFlag cancel; // set it to stop within one buffer read
};

// With the sandbox on, a worker for `config`'s target, with the rings and scratch folder a bench
// needs; null with it off. Start it on the UI thread (a worker dies with the thread that started it).
Result<WorkerPtr> startBenchWorker(const BenchConfig &config);
// The sweep: in `worker`, or in this process when it is null. Blocks.
Result<BenchResult> runSweep(const WorkerPtr &worker, const BenchConfig &config, const CancelFlag &cancel, const BenchCallbacks &callbacks);

// `heard` runs on `receiver`'s thread for every event, never after `receiver` is destroyed: its
// destructor must wait for `future`. Call it on the UI thread.
BenchJob startBench(QObject *receiver, BenchConfig config, std::function<void(const BenchEvent &)> heard);

} // namespace asc::ui
