// SPDX-License-Identifier: MIT
// `extract SPEC -C DIR [--overwrite]`: safe extraction (see core/vfs/extraction.h).

#include "argument_parser.h"
#include "cli_output.h"
#include "commands.h"
#include "io/units.h"
#include "vfs/extraction.h"
#include "io/byte_text.h"
#include "open/reading_policy.h"
#include "open/spec.h"
#include "remote/remote_container.h"
#include "vfs/problems.h"
#include "worker_options.h"

#include <cstdio>

namespace asc::cli {

int runExtract(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("extract"),
                     QStringLiteral("Extract SPEC (an archive: everything; an entry; a directory and all below it) into DIR.\n"
                                    "Never writes outside DIR: entries with '..' or absolute paths, paths through symlinks and\n"
                                    "hardlinks to files outside are refused and reported; the rest is extracted. Files are\n"
                                    "written to temporary names and renamed into place once synced to disk (one sync per\n"
                                    "batch of files). setuid/setgid bits are dropped.\n"
                                    "Exit status 1 when anything was refused or a limit stopped extraction."));
    p.addPositional(QStringLiteral("SPEC"), QStringLiteral("what to extract"));
    QCommandLineParser &parser = p.parser();
    parser.addOption({{QStringLiteral("C"), QStringLiteral("directory")}, QStringLiteral("Target directory (created if missing)."), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("overwrite"), QStringLiteral("Replace files that were in DIR before (by default they are kept and the member refused).")});
    parser.addOption({QStringLiteral("skip-existing"), QStringLiteral("Keep files that were in DIR before; their members are skipped, not refused.")});
    parser.addOption({QStringLiteral("keep-both"), QStringLiteral("Write members whose name is taken under a free name: 'name (2).ext'.")});
    parser.addOption({QStringLiteral("max-bytes"), QStringLiteral("Stop after writing this much (default 64G; 0 = no limit)."), QStringLiteral("SIZE")});
    parser.addOption({QStringLiteral("max-ratio"), QStringLiteral("Stop when output exceeds N times the archive's size, past 64 MiB (default 200; 0 = no limit)."), QStringLiteral("N")});
    if (auto stop = p.parse(args, 1))
        return *stop;
    if (!parser.isSet(QStringLiteral("C")))
        return usage(QStringLiteral("extract: -C DIR is required"));
    const QString spec = parser.positionalArguments().first();
    ExtractOptions options;
    const int policies = int(parser.isSet(QStringLiteral("overwrite"))) + int(parser.isSet(QStringLiteral("skip-existing"))) +
                         int(parser.isSet(QStringLiteral("keep-both")));
    if (policies > 1)
        return usage(QStringLiteral("extract: --overwrite, --skip-existing and --keep-both exclude each other"));
    if (parser.isSet(QStringLiteral("overwrite")))
        options.existing = ExistingPolicy::Overwrite;
    else if (parser.isSet(QStringLiteral("skip-existing")))
        options.existing = ExistingPolicy::Skip;
    else if (parser.isSet(QStringLiteral("keep-both")))
        options.existing = ExistingPolicy::KeepBoth;
    if (parser.isSet(QStringLiteral("max-bytes"))) {
        auto size = parseSize(parser.value(QStringLiteral("max-bytes")));
        if (!size)
            return usage(QStringLiteral("extract: --max-bytes: not a size: %1").arg(parser.value(QStringLiteral("max-bytes"))));
        options.maxBytes = *size;
    }
    if (parser.isSet(QStringLiteral("max-ratio"))) {
        bool ok = false;
        options.maxRatio = parser.value(QStringLiteral("max-ratio")).toDouble(&ok);
        if (!ok || options.maxRatio < 0)
            return usage(QStringLiteral("extract: --max-ratio: not a number: %1").arg(parser.value(QStringLiteral("max-ratio"))));
    }

    // The archive is parsed in a locked-down worker (unless --no-sandbox); the files are written
    // here, by this process, through the same safe extraction.
    Location location;
    std::optional<Inspected> inWorker;
    const WorkerOptions &sandbox = workerOptions();
    if (sandbox.sandbox) {
        WorkerSettings settings;
        settings.limits = sandbox.limits.lockdown;
        settings.stopAfterQuietSeconds = sandbox.limits.noProgressSeconds;
        settings.nameCharset = currentNameCharset();
        auto worker = WorkerChannel::start(splitSpec(spec).file, settings);
        if (!worker)
            return fail(spec, worker.error());
        auto inspected = inspectIn(*worker, spec);
        if (!inspected)
            return fail(spec, inspected.error());
        for (const Error &problem : inspected->inspection.problems)
            reportProblem(problem);
        location = inspected->location;
        inWorker = std::move(inspected).value();
    } else {
        auto resolved = resolve(spec);
        if (!resolved)
            return fail(spec, resolved.error());
        location = std::move(resolved).value();
    }
    ContainerPtr container;
    QByteArray selection;
    if (location.isDirectory()) {
        container = location.parent;
        selection = location.directory;
    } else if (location.parent && location.entry && location.entry->type == EntryType::File) {
        container = location.parent;
        selection = location.entry->path;
    } else if (inWorker) {
        if (!inWorker->container)
            return fail(spec, inWorker->inspection.openError.value_or(
                                  Error::format(location.source->name(), std::nullopt, QStringLiteral("not a recognised archive or disk image"))));
        container = inWorker->container;
    } else {
        auto opened = containerAt(location);
        if (!opened)
            return fail(spec, opened.error());
        container = std::move(opened).value();
    }
    auto report = extractEntries(*container, selection, parser.value(QStringLiteral("C")), options);
    if (!report)
        return fail(spec, report.error());
    for (const ExtractRefusal &refusal : report->refused)
        std::fprintf(stderr, "archivescope-cli: %s!/%s: refused: %s\n", escapeForTerminal(container->source()->name()).constData(),
                     escapeForTerminal(refusal.path).constData(), escapeForTerminal(refusal.reason).constData());
    printLine(describeReport(*report));
    if (report->stopped)
        return fail(spec, *report->stopped);
    return report->refused.empty() ? Success : Failure;
}

} // namespace asc::cli
