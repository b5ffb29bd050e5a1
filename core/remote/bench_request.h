// SPDX-License-Identifier: MIT
#pragma once
// The bench's sweep in a sandboxed worker (remote/): the worker resolves the target, runs the
// strategies on the rings it made before locking down, and streams each finished point and the
// progress back; the caller sees the same callbacks and result as runBench in its own process.
// Plain-file strategies run there too: the file comes from the parent like any other.

#include "bench/bench_runner.h"
#include "remote/worker_channel.h"
#include "remote/worker_server.h"

namespace asc {

// For the worker's program: serves wire::Kind::Bench.
WorkerAct benchAct();

// Rings a worker that benchmarks makes before it locks down: the most a strategy holds at once
// (the pxar accessor's three), polled and not.
void reserveBenchRings(LockdownLimits &limits);

// In the client: runs `config` in `worker` (started with reserveBenchRings). Stop comes from the
// calling thread's CancelScope or `cancel`.
Result<BenchResult> runBenchInWorker(WorkerChannel &worker, const BenchConfig &config, const CancelFlag &cancel,
                                     const BenchCallbacks &callbacks = {});

} // namespace asc
