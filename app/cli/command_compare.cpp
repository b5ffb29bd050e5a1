// SPDX-License-Identifier: MIT
// `compare A.json B.json`: ratios B/A per matching point, with a verdict only beyond the noise.

#include "argument_parser.h"
#include "bench/comparison.h"
#include "cli_output.h"
#include "commands.h"
#include "io/units.h"

namespace asc::cli {

int runCompare(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("compare"),
                     QStringLiteral("Compare two `bench --json` results point by point (same strategy, buffer, cache mode and pass).\n"
                                    "For each: the ratio B/A of mean throughput with its propagated standard deviation, and Welch's\n"
                                    "unequal-variances t-test on the runs; a verdict ('B is 1.18 ± 0.09 times faster than A') is given\n"
                                    "only when the difference holds after Holm's correction for the number of points compared\n"
                                    "(family-wise alpha 0.05), otherwise 'no difference'."));
    p.addPositional(QStringLiteral("A.json"), QStringLiteral("baseline"));
    p.addPositional(QStringLiteral("B.json"), QStringLiteral("candidate"));
    if (auto stop = p.parse(args, 2))
        return *stop;
    const QStringList files = p.parser().positionalArguments();
    auto a = loadBenchResult(files[0]);
    if (!a)
        return fail(files[0], a.error());
    auto b = loadBenchResult(files[1]);
    if (!b)
        return fail(files[1], b.error());
    const auto comparisons = comparePoints(*a, *b);
    if (comparisons.empty())
        return fail(files[1], Error::make(ErrorKind::Format, files[1], QStringLiteral("no point in common with %1").arg(files[0])));
    int differences = 0;
    for (const PointComparison &c : comparisons) {
        printLine(QStringLiteral("%1 %2 %3 pass %4: B/A = %5 ± %6  %7")
                      .arg(c.strategy.leftJustified(24), sizeLabel(c.buffer).rightJustified(8), cacheModeName(c.cache))
                      .arg(c.pass)
                      .arg(c.ratio.value, 0, 'f', 3)
                      .arg(c.ratio.sd, 0, 'f', 3)
                      .arg(c.verdict));
        differences += c.significant ? 1 : 0;
    }
    printLine(differences == 0 ? QStringLiteral("no difference at any of %1 points").arg(comparisons.size())
                               : QStringLiteral("%1 of %2 points differ beyond the noise (Welch's t-test, Holm-corrected over the %2 points)").arg(differences).arg(comparisons.size()));
    return Success;
}

} // namespace asc::cli
