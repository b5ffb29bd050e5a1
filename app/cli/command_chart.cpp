// SPDX-License-Identifier: MIT
// `chart RESULT.json -o OUT.(png|svg|pdf)`: the same chart the GUI draws, rendered offscreen by
// the same code (ui/bench/benchmark_chart), for CI pipelines and scripts.

#include "argument_parser.h"
#include "benchmark_chart.h"
#include "cli_output.h"
#include "commands.h"

namespace asc::cli {

int runChart(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("chart"), QStringLiteral("Render a `bench --json` result as the GUI's throughput chart (PNG at 2x, SVG or PDF)."));
    p.addPositional(QStringLiteral("RESULT.json"), QStringLiteral("a bench result"));
    p.parser().addOption({{QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("OUT.png, OUT.svg or OUT.pdf"), QStringLiteral("OUT")});
    p.parser().addOption({QStringLiteral("size"), QStringLiteral("Chart size in logical pixels (default 1200x700)."), QStringLiteral("WxH"), QStringLiteral("1200x700")});
    if (auto stop = p.parse(args, 1))
        return *stop;
    if (!p.parser().isSet(QStringLiteral("output")))
        return usage(QStringLiteral("chart: -o OUT is required"));
    const QStringList wh = p.parser().value(QStringLiteral("size")).split(QLatin1Char('x'));
    const QSize size = wh.size() == 2 ? QSize(wh[0].toInt(), wh[1].toInt()) : QSize();
    if (size.width() < 100 || size.height() < 100 || size.width() > 10000 || size.height() > 10000)
        return usage(QStringLiteral("chart: --size must be WxH between 100 and 10000"));
    const QString input = p.parser().positionalArguments().first();
    auto result = loadBenchResult(input);
    if (!result)
        return fail(input, result.error());
    ui::BenchmarkChart chart;
    chart.setResults({{input, *result}});
    const QString out = p.parser().value(QStringLiteral("output"));
    if (auto written = chart.exportTo(out, size); !written)
        return fail(out, written.error());
    return Success;
}

} // namespace asc::cli
