// SPDX-License-Identifier: MIT
#pragma once
// Summary statistics of repeated measurements (like hyperfine) and Welch's t-test for comparing
// two sets of them.

#include <vector>

namespace asc {

struct Summary {
    double mean = 0;
    double sd = 0; // sample standard deviation (n - 1)
    double median = 0;
    double min = 0;
    double max = 0;
    int count = 0;
};

Summary summarise(std::vector<double> values);

struct WelchTest {
    double t = 0;
    double degreesOfFreedom = 0;
    double pValue = 1; // two-sided
};
// Welch's unequal-variances t-test between two summaries.
WelchTest welch(const Summary &a, const Summary &b);

// A ratio b/a of two means with its propagated standard deviation (first-order).
struct Ratio {
    double value = 0;
    double sd = 0;
};
Ratio ratioOf(const Summary &numerator, const Summary &denominator);

} // namespace asc
