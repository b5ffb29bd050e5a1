// SPDX-License-Identifier: MIT
// `bench SPEC [options]`: the read-strategy x buffer-size sweep (CLI.md).

#include "argument_parser.h"
#include "bench/bench_runner.h"
#include "bench/command/command_run.h"
#include "cli_output.h"
#include "commands.h"
#include "io/atomic_file.h"
#include "io/units.h"

#include <QJsonDocument>
#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace asc::cli {

static CancelFlag *interruptFlag = nullptr;

static void onInterrupt(int)
{
    if (interruptFlag)
        interruptFlag->cancel(); // a relaxed atomic store: async-signal-safe
}

QList<QCommandLineOption> benchOptions()
{
    return {
        QCommandLineOption(QStringLiteral("strategy"), QStringLiteral("A strategy (repeatable; see `strategies`). Default: a core set for the target."), QStringLiteral("NAME")),
        QCommandLineOption(QStringLiteral("sizes"),
                           QStringLiteral("Buffer sizes: A:B = every power of two from A to B, or a comma list (default %1).").arg(bench_defaults::sizesText()),
                           QStringLiteral("LIST"), bench_defaults::sizesText()),
        QCommandLineOption(QStringLiteral("runs"), QStringLiteral("Counted runs per point (default %1).").arg(bench_defaults::kRuns), QStringLiteral("N"),
                           QString::number(bench_defaults::kRuns)),
        QCommandLineOption(QStringLiteral("warmup"), QStringLiteral("Warm-up runs per point, not counted (default %1).").arg(bench_defaults::kWarmup),
                           QStringLiteral("N"), QString::number(bench_defaults::kWarmup)),
        QCommandLineOption(QStringLiteral("cache"), QStringLiteral("warm, or cold: evict the file's pages (posix_fadvise DONTNEED) before every run."), QStringLiteral("MODE"), QStringLiteral("warm")),
        QCommandLineOption(QStringLiteral("passes"), QStringLiteral("Repeat the whole sweep N times, reported as pass 1, 2, ... (first/second pass)."), QStringLiteral("N"), QString::number(bench_defaults::kPasses)),
        QCommandLineOption(QStringLiteral("output-dir"), QStringLiteral("Where the copy strategies write (the copy is removed after each run)."), QStringLiteral("DIR")),
        QCommandLineOption(QStringLiteral("command"),
                           QStringLiteral("Your own reader, as NAME=TEMPLATE (repeatable): a command line with {file} (the target's path) or\n"
                                          "{stdin} (/dev/stdin, the target's bytes on standard input), and {buffer} (bytes) or {buffer_kib}.\n"
                                          "Measured for its whole process tree. With --command, strategies run only when named."),
                           QStringLiteral("NAME=TEMPLATE")),
        QCommandLineOption(QStringLiteral("shell"), QStringLiteral("Run each --command with /bin/sh -c (pipes, redirections); placeholders are quoted for it.")),
        QCommandLineOption(QStringLiteral("prepare"), QStringLiteral("A shell command run before each run, not timed (e.g. to drop a cache of your own)."), QStringLiteral("CMD")),
        QCommandLineOption(QStringLiteral("json"), QStringLiteral("Write the result as JSON (written atomically)."), QStringLiteral("FILE")),
        QCommandLineOption(QStringLiteral("csv"), QStringLiteral("Write the per-point statistics as CSV."), QStringLiteral("FILE")),
    };
}

bool benchStartsPrograms(const QStringList &args)
{
    for (const QString &a : args)
        for (const char *option : {"--command", "--prepare"})
            if (a == QLatin1String(option) || a.startsWith(QLatin1String(option) + QLatin1Char('=')))
                return true;
    return false;
}

int runBench(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("bench"),
                     QStringLiteral("Read SPEC (a file, an archive entry, a virtual disk, a partition) completely with each strategy at\n"
                                    "each buffer size, repeat, and report throughput (MiB/s, MiB = 2^20 bytes) as mean ± sd (min … max).\n"
                                    "Every run must return exactly the target's bytes. Ctrl-C stops within one buffer read."));
    p.addPositional(QStringLiteral("SPEC"), QStringLiteral("what to read"));
    QCommandLineParser &parser = p.parser();
    parser.addOptions(benchOptions());
    if (auto stop = p.parse(args, 1))
        return *stop;
    const QString spec = parser.positionalArguments().first();

    BenchConfig config;
    config.spec = spec;
    config.strategies = parser.values(QStringLiteral("strategy"));
    auto sizes = parseSizeList(parser.value(QStringLiteral("sizes")));
    if (!sizes)
        return usage(QStringLiteral("bench: ") + sizes.error().message);
    config.buffers = *sizes;
    bool ok1 = false, ok2 = false, ok3 = false;
    config.runs = parser.value(QStringLiteral("runs")).toInt(&ok1);
    config.warmup = parser.value(QStringLiteral("warmup")).toInt(&ok2);
    config.passes = parser.value(QStringLiteral("passes")).toInt(&ok3);
    if (!ok1 || !ok2 || !ok3 || config.runs < 1 || config.warmup < 0 || config.passes < 1 || config.runs > 10000 || config.passes > 100)
        return usage(QStringLiteral("bench: --runs and --passes need a number >= 1, --warmup >= 0"));
    const QString cache = parser.value(QStringLiteral("cache"));
    if (cache != QLatin1String("warm") && cache != QLatin1String("cold"))
        return usage(QStringLiteral("bench: --cache must be warm or cold"));
    config.cache = cache == QLatin1String("cold") ? CacheMode::Cold : CacheMode::Warm;

    config.outputDir = parser.value(QStringLiteral("output-dir"));
    for (const QString &text : parser.values(QStringLiteral("command"))) {
        auto command = parseCommandTemplate(text, parser.isSet(QStringLiteral("shell")));
        if (!command)
            return usage(QStringLiteral("bench: ") + command.error().message);
        for (const CommandTemplate &other : config.commands)
            if (other.name == command->name)
                return usage(QStringLiteral("bench: two commands are named %1: give each a NAME= of its own").arg(other.name));
        config.commands.push_back(*command);
    }
    config.prepare = parser.value(QStringLiteral("prepare"));
    auto target = openReadTarget(spec);
    if (!target)
        return fail(spec, target.error());
    target->target.outputDir = config.outputDir;
    auto selection = strategiesToRun(config, target->target);
    if (!selection)
        return selection.error().kind == ErrorKind::Usage ? usage(QStringLiteral("bench: ") + selection.error().message) : fail(spec, selection.error());
    int width = 12;
    for (const auto &s : selection->strategies)
        width = std::max(width, int(s->name().size()));
    for (const CommandTemplate &c : config.commands) {
        width = std::max(width, int(c.name.size()));
        if (auto usable = checkCommandTarget(c, target->target); !usable)
            return usage(QStringLiteral("bench: ") + usable.error().message);
    }
    printLine(QStringLiteral("target: %1 (%2 bytes, %3)").arg(spec).arg(target->target.source->size()).arg(sizeLabel(target->target.source->size())));
    printLine(QStringLiteral("runs: %1 + %2 warm-up per point, cache %3, %4 pass(es); MiB = 2^20 bytes").arg(config.runs).arg(config.warmup).arg(cache).arg(config.passes));
    for (const QString &skipped : selection->skipped)
        printLine(QStringLiteral("skipped %1").arg(skipped));
    for (const CommandTemplate &c : config.commands)
        printLine(QStringLiteral("command %1: %2%3").arg(c.name, c.text, c.shell ? QStringLiteral(" (with /bin/sh -c)") : QString()));

    CancelFlag cancel;
    interruptFlag = &cancel;
    std::signal(SIGINT, onInterrupt);
    BenchCallbacks callbacks;
    callbacks.point = [&](const BenchPoint &point) { printLine(pointLine(point, width)); };
    callbacks.progress = [](int done, int total, const QString &what) {
        if (isatty(STDERR_FILENO))
            std::fprintf(stderr, "\r[%d/%d] %-60s\r", done, total, what.left(60).toUtf8().constData());
    };
    auto result = asc::runBench(config, *target, cancel, callbacks);
    std::signal(SIGINT, SIG_DFL);
    interruptFlag = nullptr;
    if (isatty(STDERR_FILENO))
        std::fprintf(stderr, "\r%70s\r", "");
    if (!result)
        return fail(spec, result.error());
    printLine(QString());
    for (const QString &line : summaryLines(*result))
        printLine(line);
    if (parser.isSet(QStringLiteral("json"))) {
        auto written = writeFileAtomically(parser.value(QStringLiteral("json")), QJsonDocument(toJson(*result)).toJson(QJsonDocument::Indented));
        if (!written)
            return fail(spec, written.error());
    }
    if (parser.isSet(QStringLiteral("csv"))) {
        auto written = writeFileAtomically(parser.value(QStringLiteral("csv")), toCsv(*result));
        if (!written)
            return fail(spec, written.error());
    }
    return Success;
}

} // namespace asc::cli
