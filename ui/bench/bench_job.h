// SPDX-License-Identifier: MIT
#pragma once
// A benchmark run on a worker thread: each finished point is a result of the future (for the live
// chart), progress carries "point N of M" with an ETA, cancelling the future stops the run within
// one buffer read. The final BenchResult comes through the callback on the UI thread.

#include "bench/bench_runner.h"

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

// `finished` and `progress` run on `receiver`'s thread, never after `receiver` is destroyed: its
// destructor must wait for `future`.
BenchJob startBench(QObject *receiver, BenchConfig config, std::function<void(BenchOutcome)> finished, std::function<void(BenchProgress)> progress);

} // namespace asc::ui
