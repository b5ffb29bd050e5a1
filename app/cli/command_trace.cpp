// SPDX-License-Identifier: MIT
// `trace [-o FILE] -- COMMAND ARGS...`: runs a CLI command with the I/O trace on (where the
// command runs: in the sandboxed worker for the parsing commands, whose parent then writes FILE),
// writes one JSON object per read to FILE (JSON Lines: file, offset, length, t, thread, layer)
// and prints a summary per file on stderr.

#include "argument_parser.h"
#include "bench/command/command_run.h"
#include "bench/read_target.h"
#include "cli_output.h"
#include "commands.h"
#include "sandbox/proc_io.h"
#include "io/atomic_file.h"
#include "io/trace_summary.h"
#include "io/units.h"

#include <QJsonDocument>
#include <functional>
#include <cstdio>

namespace asc::cli {

static void printSummary(const std::vector<TraceFileSummary> &files, uint64_t delivered)
{
    auto line = [](const QString &text) { std::fprintf(stderr, "%s\n", text.toUtf8().constData()); };
    for (const TraceFileSummary &s : files) {
        line(QStringLiteral("trace: %1").arg(s.file));
        line(QStringLiteral("  %1 reads, %2 read, %3 distinct (%4 re-read), %5 seeks")
                 .arg(s.requests)
                 .arg(sizeLabel(s.bytesRead), sizeLabel(s.distinctBytes), sizeLabel(s.bytesRead - s.distinctBytes))
                 .arg(s.seeks));
        if (delivered > 0)
            line(QStringLiteral("  read amplification: %1 read for %2 delivered = %3x")
                     .arg(sizeLabel(s.bytesRead), sizeLabel(delivered))
                     .arg(double(s.bytesRead) / double(delivered), 0, 'f', 3));
        QStringList sizes;
        for (const auto &[bucket, count] : s.sizeHistogram)
            sizes << QStringLiteral("<=%1: %2").arg(sizeLabel(bucket)).arg(count);
        line(QStringLiteral("  request sizes: %1").arg(sizes.join(QStringLiteral(", "))));
        QStringList layers;
        for (const auto &[layer, bytes] : s.bytesByLayer)
            layers << QStringLiteral("%1 %2").arg(layer, sizeLabel(bytes));
        line(QStringLiteral("  by layer: %1").arg(layers.join(QStringLiteral(", "))));
        QStringList runs;
        for (const auto &[offset, bytes] : s.longestRuns)
            runs << QStringLiteral("%1 from offset %2").arg(sizeLabel(bytes)).arg(offset);
        line(QStringLiteral("  longest sequential runs: %1").arg(runs.join(QStringLiteral("; "))));
    }
}

// `trace [-o FILE] --command 'TEMPLATE' [--buffer SIZE] [--shell] SPEC`: any program's reads of the
// target, seen by the kernel (process_tree.h's traced run), in the same records and summary.
static int traceCommand(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("trace"),
                     QStringLiteral("Run TEMPLATE (a command line with {file} or {stdin}, and optionally {buffer}/{buffer_kib}) and record\n"
                                    "every read-family call of its process tree on SPEC: offset, length, time, pid, call."));
    p.addPositional(QStringLiteral("SPEC"), QStringLiteral("the file (or an entry, given on {stdin}) the command reads"));
    QCommandLineParser &parser = p.parser();
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")}, QStringLiteral("JSON Lines output (default archivescope-trace.jsonl)."), QStringLiteral("FILE"), QStringLiteral("archivescope-trace.jsonl")});
    parser.addOption({QStringLiteral("command"), QStringLiteral("The command line to run."), QStringLiteral("TEMPLATE")});
    parser.addOption({QStringLiteral("buffer"), QStringLiteral("The value of {buffer} (default 64K)."), QStringLiteral("SIZE"), QStringLiteral("64K")});
    parser.addOption({QStringLiteral("shell"), QStringLiteral("Run the command with /bin/sh -c.")});
    if (auto stop = p.parse(args, 1))
        return *stop;
    const QString spec = parser.positionalArguments().first();
    auto command = parseCommandTemplate(parser.value(QStringLiteral("command")), parser.isSet(QStringLiteral("shell")), false);
    if (!command)
        return usage(QStringLiteral("trace: ") + command.error().message);
    const auto buffer = parseSize(parser.value(QStringLiteral("buffer")));
    if (!buffer || *buffer == 0)
        return usage(QStringLiteral("trace: bad --buffer '%1'").arg(parser.value(QStringLiteral("buffer"))));
    auto target = openReadTarget(spec);
    if (!target)
        return fail(spec, target.error());
    if (auto usable = checkCommandTarget(*command, target->target); !usable)
        return usage(QStringLiteral("trace: ") + usable.error().message);
    CancelFlag never;
    auto run = runCommand(*command, target->target, *buffer, true, never);
    if (!run)
        return fail(spec, run.error());
    const QStringList files = {target->target.filePath.isEmpty() ? spec : target->target.filePath};
    std::vector<TraceRecord> records;
    for (const TargetRead &read : run->tree.targetReads) {
        TraceRecord r;
        r.offset = read.offset;
        r.length = read.length;
        r.tNs = read.tNs;
        r.thread = read.pid;
        r.layer = read.call;
        records.push_back(r);
    }
    QByteArray lines;
    for (const TraceRecord &r : records)
        lines += QJsonDocument(traceRecordJson(r, files)).toJson(QJsonDocument::Compact) + '\n';
    const QString output = parser.value(QStringLiteral("output"));
    if (auto written = writeFileAtomically(output, lines); !written)
        return fail(output, written.error());
    printSummary(summarizeTrace(records, files), target->target.source->size());
    if (run->tree.mapsTarget)
        std::fprintf(stderr, "trace: the command maps the file (mmap): its page faults are not read calls, and not recorded\n");
    if (run->tree.usesIoUring)
        std::fprintf(stderr, "trace: the command uses io_uring: those reads are not seen\n");
    std::fprintf(stderr, "trace: %s: %zu reads written to %s\n", run->command.toUtf8().constData(), records.size(), output.toUtf8().constData());
    return Success;
}

int runTrace(const QStringList &args, const std::function<int(const QStringList &)> &dispatch)
{
    if (std::any_of(args.begin(), args.end(), [](const QString &a) { return a == QLatin1String("--command") || a.startsWith(QLatin1String("--command=")); }) &&
        !args.contains(QStringLiteral("--")))
        return traceCommand(args);
    QString output = QStringLiteral("archivescope-trace.jsonl");
    qsizetype i = 1;
    for (; i < args.size() && args[i] != QLatin1String("--"); ++i) {
        if ((args[i] == QLatin1String("-o") || args[i] == QLatin1String("--output")) && i + 1 < args.size())
            output = args[++i];
        else if (args[i] == QLatin1String("--help") || args[i] == QLatin1String("-h")) {
            std::fputs("Usage: archivescope-cli trace [-o FILE] -- COMMAND ARGS...\n"
                       "       archivescope-cli trace [-o FILE] --command 'TEMPLATE' [--buffer SIZE] [--shell] SPEC\n"
                       "Runs COMMAND (ls, cat, info, map, extract, bench, ...) with every read of a file recorded:\n"
                       "one JSON object per read in FILE (default archivescope-trace.jsonl): file, offset,\n"
                       "length, t (seconds since the start), thread, layer (the parser part that asked:\n"
                       "libarchive, qcow2 L2 table, qcow2 data cluster, pxar goodbye table, TSK block, ...).\n"
                       "A summary per file goes to stderr: reads, bytes read and distinct, re-reads, seeks,\n"
                       "read amplification (for cat: against the bytes delivered), request sizes, layers and\n"
                       "the longest sequential runs. The command runs where it would without trace: info, ls,\n"
                       "cat, map and bench in the sandboxed worker (--no-sandbox: in this process).\n",
                       stdout);
            return Success;
        } else
            return usage(QStringLiteral("trace: unexpected '%1' (trace [-o FILE] -- COMMAND ARGS...)").arg(args[i]));
    }
    if (i + 1 >= args.size())
        return usage(QStringLiteral("trace: no command after -- (trace [-o FILE] -- COMMAND ARGS...)"));
    const QStringList inner = args.mid(i + 1);
    if (inner.first() == QLatin1String("trace"))
        return usage(QStringLiteral("trace: cannot trace trace"));
    // Bytes delivered: what the command wrote (cat: the entry's bytes), as the kernel counted.
    const auto ioBefore = readProcIo();
    IoTrace::start();
    const int status = dispatch(inner);
    std::fflush(stdout);
    const auto ioAfter = readProcIo();
    const uint64_t delivered = ioBefore && ioAfter ? ioAfter->wchar - ioBefore->wchar : 0;
    const std::vector<TraceRecord> records = IoTrace::stop();
    const QStringList files = IoTrace::files();
    QByteArray lines;
    for (const TraceRecord &r : records)
        lines += QJsonDocument(traceRecordJson(r, files)).toJson(QJsonDocument::Compact) + '\n';
    if (auto written = writeFileAtomically(output, lines); !written)
        return fail(output, written.error());
    printSummary(summarizeTrace(records, files), inner.first() == QLatin1String("cat") ? delivered : 0);
    std::fprintf(stderr, "trace: %zu reads written to %s\n", records.size(), output.toUtf8().constData());
    return status;
}

} // namespace asc::cli
