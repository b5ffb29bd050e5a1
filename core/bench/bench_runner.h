// SPDX-License-Identifier: MIT
#pragma once
// Runs a benchmark: strategies x buffer sizes x (warm-up + counted runs), per pass, warm or cold
// cache. Blocks (run it on a worker); reports each finished point and progress as it goes; the
// cancel flag stops it within one buffer read.

#include "bench_result.h"
#include "read_target.h"

#include <functional>

namespace asc {

struct BenchCallbacks {
    std::function<void(const BenchPoint &)> point; // a point is complete
    std::function<void(int done, int total, const QString &what)> progress; // before each run
};

// The strategies a config names (or, when it names none, the default set for this target), and
// why the others were left out.
struct StrategySelection {
    std::vector<StrategyPtr> strategies;
    QStringList skipped; // "mmap: not applicable: ..."
};
Result<StrategySelection> selectStrategies(const QStringList &names, const ReadTarget &target);
QStringList defaultStrategyNames(const ReadTarget &target);
// The strategies a run of `config` measures: with commands, only those named.
Result<StrategySelection> strategiesToRun(const BenchConfig &config, const ReadTarget &target);

Result<BenchResult> runBench(const BenchConfig &config, const OpenedTarget &target, const CancelFlag &cancel,
                             const BenchCallbacks &callbacks = {});

// Powers of two from `from` to `to` ("4K:16M"), or a comma list ("64K,1M").
Result<std::vector<uint64_t>> parseSizeList(const QString &text);

} // namespace asc
