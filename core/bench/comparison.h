// SPDX-License-Identifier: MIT
#pragma once
// Comparing two bench results point by point: ratio B/A of mean throughput with propagated
// uncertainty, and a verdict only when Welch's t-test says the difference exceeds the noise,
// corrected for the number of points compared (Holm's step-down method, family-wise alpha).

#include "bench_result.h"

namespace asc {

struct PointComparison {
    QString strategy;
    uint64_t buffer = 0;
    CacheMode cache = CacheMode::Warm;
    int pass = 1;
    Ratio ratio; // B / A
    WelchTest test;
    double adjustedP = 1; // Holm-adjusted over every point compared
    bool significant = false; // rejected by Holm's method at alpha
    QString verdict; // "B is 1.18 ± 0.09 times faster than A" or "no difference"
};

std::vector<PointComparison> comparePoints(const BenchResult &a, const BenchResult &b, double alpha = 0.05);

} // namespace asc
