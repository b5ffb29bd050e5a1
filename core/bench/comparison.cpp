// SPDX-License-Identifier: MIT
#include "comparison.h"

#include <algorithm>
#include <numeric>

namespace asc {

std::vector<PointComparison> comparePoints(const BenchResult &a, const BenchResult &b, double alpha)
{
    std::vector<PointComparison> out;
    for (const BenchPoint &pa : a.points) {
        for (const BenchPoint &pb : b.points) {
            if (pa.strategy != pb.strategy || pa.buffer != pb.buffer || pa.cache != pb.cache || pa.pass != pb.pass)
                continue;
            PointComparison c;
            c.strategy = pa.strategy;
            c.buffer = pa.buffer;
            c.cache = pa.cache;
            c.pass = pa.pass;
            c.ratio = ratioOf(pb.mibps, pa.mibps);
            c.test = welch(pa.mibps, pb.mibps);
            out.push_back(c);
        }
    }
    // Holm's step-down correction over every point compared: 42 points of two identical sweeps
    // give two or three p < 0.05 by chance alone, which once read "1.91x faster".
    std::vector<size_t> order(out.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return out[x].test.pValue < out[y].test.pValue; });
    const size_t m = out.size();
    double running = 0;
    bool rejecting = true;
    for (size_t k = 0; k < m; ++k) {
        PointComparison &c = out[order[k]];
        running = std::max(running, std::min(1.0, double(m - k) * c.test.pValue));
        c.adjustedP = running;
        rejecting = rejecting && c.test.pValue < alpha / double(m - k);
        c.significant = rejecting;
    }
    for (PointComparison &c : out) {
        // Differences print p with two significant digits, no difference with two decimals.
        const char format = c.significant ? 'g' : 'f';
        const QString p = m > 1 ? QStringLiteral("p = %1, Holm-adjusted over %2 points: %3").arg(c.test.pValue, 0, format, 2).arg(m).arg(c.adjustedP, 0, format, 2)
                                : QStringLiteral("p = %1").arg(c.test.pValue, 0, format, 2);
        if (!c.significant)
            c.verdict = QStringLiteral("no difference (%1)").arg(p);
        else if (c.ratio.value >= 1)
            c.verdict = QStringLiteral("B is %1 ± %2 times faster than A (%3)").arg(c.ratio.value, 0, 'f', 2).arg(c.ratio.sd, 0, 'f', 2).arg(p);
        else // A/B from B/A: the inverse, with the same relative uncertainty (ratioOf's propagation)
            c.verdict = QStringLiteral("A is %1 ± %2 times faster than B (%3)")
                            .arg(c.ratio.value > 0 ? 1 / c.ratio.value : 0.0, 0, 'f', 2)
                            .arg(c.ratio.value > 0 ? c.ratio.sd / (c.ratio.value * c.ratio.value) : 0.0, 0, 'f', 2)
                            .arg(p);
    }
    return out;
}

} // namespace asc
