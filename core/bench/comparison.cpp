// SPDX-License-Identifier: MIT
#include "comparison.h"

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
            c.significant = c.test.pValue < alpha;
            if (!c.significant) {
                c.verdict = QStringLiteral("no difference (p = %1)").arg(c.test.pValue, 0, 'f', 2);
            } else if (c.ratio.value >= 1) {
                c.verdict = QStringLiteral("B is %1 ± %2 times faster than A (p = %3)").arg(c.ratio.value, 0, 'f', 2).arg(c.ratio.sd, 0, 'f', 2).arg(c.test.pValue, 0, 'g', 2);
            } else {
                const Ratio inverse = ratioOf(pa.mibps, pb.mibps);
                c.verdict = QStringLiteral("A is %1 ± %2 times faster than B (p = %3)").arg(inverse.value, 0, 'f', 2).arg(inverse.sd, 0, 'f', 2).arg(c.test.pValue, 0, 'g', 2);
            }
            out.push_back(c);
        }
    }
    return out;
}

} // namespace asc
