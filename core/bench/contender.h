// SPDX-License-Identifier: MIT
#pragma once
// What a sweep measures at each buffer size, in one shape: one of our read strategies, or a
// command of the user's. runBench only loops over contenders and interleaves their runs.

#include "bench/bench_result.h"
#include "bench/read_strategy.h"

#include <functional>
#include <map>
#include <memory>

namespace asc {

class Contender {
public:
    virtual ~Contender() = default;
    // A fresh point at `buffer` with what is known before its runs (a command's requests on the
    // target, from one untimed traced run). `say` reports such an extra run as progress.
    virtual Result<BenchPoint> startPoint(uint64_t buffer, const std::function<void(const QString &)> &say, const CancelFlag &cancel) = 0;
    // One timed run at `buffer` (after startPoint for that size); what the strategy noted about
    // it (a fallback it took) goes to `note`.
    virtual Result<Sample> measure(uint64_t buffer, const CancelFlag &cancel, QString *note) = 0;
};

std::unique_ptr<Contender> strategyContender(const ReadStrategy &strategy, const ReadTarget &target);
std::unique_ptr<Contender> commandContender(const CommandTemplate &command, const ReadTarget &target);

} // namespace asc
