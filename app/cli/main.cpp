// SPDX-License-Identifier: MIT
// archivescope-cli: the headless twin of the GUI (see CLI.md for the contract).

#include "terminal_password.h"
#include "cli_output.h"
#include "worker_options.h"
#include "command_table.h"
#include "commands.h"
#include "open/reading_policy.h"
#include "open/archive_indexes.h"
#include "io/byte_text.h"
#include "vfs/problems.h"
#include "sandbox/process_setup.h"
#include "io/version.h"
#include "sandbox/proc_io.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <sys/resource.h>

#include <QCoreApplication>
#include <cstring>
#include <memory>
#include <csignal>
#include <cstdio>

using namespace asc;

static const char *kHelp =
    "Usage: archivescope-cli COMMAND [ARGS...]\n"
    "Browse archives and disk images, and measure how fast they read.\n"
    "\n"
    "A SPEC is a file path, optionally followed by nested parts separated by '!/':\n"
    "  backup.tar.gz!/etc/hosts     release.iso!/docs.tar.gz!/README\n"
    "\n"
    "Commands:\n"
    "  formats                      the formats this build can open\n"
    "  strategies                   the read strategies available on this machine\n"
    "  info SPEC [--json]           format and metadata\n"
    "  ls SPEC [--json]             every entry below SPEC, recursively, in archive order\n"
    "  cat SPEC                     the bytes of an entry (or file) to stdout\n"
    "  index SPEC [--json]          a compressed tarball's index: built once, then listings and\n"
    "                               members come from it (--drop removes it)\n"
    "  map SPEC [--json]            disk images: extents of the virtual disk (like qemu-img map)\n"
    "  extract SPEC -C DIR          safe extraction into DIR\n"
    "  hash SPEC [--algo A]         HASH  path for every file below SPEC, as sha256sum prints it\n"
    "  test SPEC [--json]           read everything below SPEC (and inside it), report each problem\n"
    "  grep PATTERN SPEC [-iFEPlca] the lines that match in every file below SPEC (and inside it)\n"
    "  mount SPEC DIR               read-only FUSE mount of SPEC, archives inside as folders\n"
    "                               (--no-recursive: as files; --foreground); fusermount3 -u DIR\n"
    "  pxar-create DIR -o OUT       write DIR as a pxar archive (--split: .mpxar + .ppxar)\n"
    "  chart RESULT.json -o OUT     render a bench result as PNG, SVG or PDF\n"
    "  bench SPEC [options]         read-strategy x buffer-size sweep\n"
    "  writebench DIR [options]     write strategies x file sizes: write calls, amplification\n"
    "  compare A.json B.json        ratios between two bench results\n"
    "  trace [-o FILE] -- COMMAND   every read COMMAND makes, as JSON Lines, and a summary\n"
    "\n"
    "info, ls, cat, index, hash, test, grep, map, bench, extract and mount parse the file in a locked-down\n"
    "worker process (extract writes the files and mount serves them from this one): a crash,\n"
    "a memory blow-up (--memory-limit SIZE, default 2G) or a loop that works without reading or\n"
    "writing (--time-limit SECONDS, default 30) ends it with a message, exit status 1;\n"
    "--no-sandbox parses in this process.\n"
    "--no-index reads and writes no archive index (kept in $XDG_CACHE_HOME/archivescope/index).\n"
    "Every command takes --help. Anywhere on the line, --allow-backing lets disk images follow\n"
    "backing files outside their own folder (absolute paths, ../); by default those are refused.\n"
    "--charset NAME decodes legacy archive names (zip, tar, cpio, cab) from NAME (e.g. CP866,\n"
    "KOI8-R, SHIFT_JIS); by default names are shown as stored and SPECs match them byte for byte.\n"
    "--password-file FILE (one password per line, tried in turn) or ARCHIVESCOPE_PASSWORD decrypts\n"
    "encrypted zip entries (ZipCrypto, WinZip AES) and 7z (through 7-Zip's 7zz, jailed); passwords\n"
    "never go on the command line. On a terminal with neither, the CLI asks.\n"
    "Exit status: 0 success, 1 bad input, failed operation or any problem reported on stderr\n"
    "(a damaged header skipped, an unreadable entry), 2 usage error.\n";

// With ARCHIVESCOPE_WORK_FILE=PATH, the work this run did, as the kernel counted it, is written
// there as JSON: bytes and calls of reads, peak memory. Tests bound work with these counters
// instead of timing a run (the machine is shared; time says little).
// With a worker, its counters are the run's (this process only waited).
static void writeWorkCounters(const std::optional<WorkerEnd> &worker = std::nullopt)
{
    const QByteArray path = qgetenv("ARCHIVESCOPE_WORK_FILE");
    if (path.isEmpty())
        return;
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    QJsonObject work{{QStringLiteral("maxrss_kib"), double(usage.ru_maxrss)}};
    if (worker)
        work[QStringLiteral("maxrss_kib")] = double(worker->maxrssKib);
    if (auto io = worker ? worker->io : readProcIo()) {
        work[QStringLiteral("rchar")] = double(io->rchar);
        work[QStringLiteral("syscr")] = double(io->syscr);
        work[QStringLiteral("wchar")] = double(io->wchar);
    }
    QFile file(QString::fromLocal8Bit(path));
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(QJsonDocument(work).toJson(QJsonDocument::Compact));
}

// Takes every `NAME VALUE` and `NAME=VALUE` of a global option out of `args`, in order;
// nullopt when NAME comes last without its value.
static std::optional<QStringList> takeGlobalOption(QStringList &args, const QString &name)
{
    QStringList values;
    const QString joined = name + QLatin1Char('=');
    for (qsizetype i = 0; i < args.size();) {
        if (args[i] == name) {
            if (i + 1 >= args.size())
                return std::nullopt;
            values << args[i + 1];
            args.remove(i, 2);
        } else if (args[i].startsWith(joined)) {
            values << args[i].mid(joined.size());
            args.remove(i, 1);
        } else {
            ++i;
        }
    }
    return values;
}

int main(int argc, char **argv)
{
    useUtf8Locale();
    std::signal(SIGPIPE, SIG_IGN); // EPIPE is handled where stdout is written
    QCoreApplication application(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("archivescope-cli"));
    QCoreApplication::setApplicationVersion(programVersion());
    // argv as bytes, not through the locale: a SPEC may name files and entries that are not UTF-8.
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << bytesToText(QByteArray(argv[i]));
    // Global: follow disk-image backing files outside the image's folder (absolute names, "../").
    if (args.removeAll(QStringLiteral("--allow-backing")) > 0)
        backingPolicy().allowOutside = true;
    // Global: decode legacy archive names from this charset (libarchive's hdrcharset).
    const auto charsets = takeGlobalOption(args, QStringLiteral("--charset"));
    if (!charsets)
        return cli::usage(QStringLiteral("--charset needs a charset name (e.g. CP866, KOI8-R, SHIFT_JIS)"));
    for (const QString &charset : *charsets) {
        if (!isKnownCharset(charset.toLatin1()))
            return cli::usage(QStringLiteral("--charset: unknown charset '%1' (see iconv --list)").arg(charset));
        setDefaultNameCharset(charset.toLatin1());
    }
    // Global: passwords for encrypted entries, from --password-file FILE (one per line, tried in
    // turn) or ARCHIVESCOPE_PASSWORD; never from argv, which every user of the machine can read.
    const auto passwordFiles = takeGlobalOption(args, QStringLiteral("--password-file"));
    if (!passwordFiles)
        return cli::usage(QStringLiteral("--password-file needs a file (one password per line)"));
    QList<QByteArray> passwords;
    for (const QString &file : *passwordFiles) {
        QFile in(file);
        if (!in.open(QIODevice::ReadOnly))
            return cli::usage(QStringLiteral("--password-file: cannot read '%1': %2").arg(file, in.errorString()));
        for (QByteArray line : in.readAll().split('\n')) {
            if (line.endsWith('\r'))
                line.chop(1);
            if (!line.isEmpty())
                passwords << line;
        }
    }
    if (const QByteArray fromEnvironment = qgetenv("ARCHIVESCOPE_PASSWORD"); !fromEnvironment.isEmpty())
        passwords << fromEnvironment;
    if (!passwords.isEmpty())
        setDefaultArchivePasswords(std::move(passwords));
    else
        cli::askOnTerminalWhenNeeded(); // neither given: a terminal is asked when one is needed
    // Global: --no-index (no archive index read or written).
    if (const qsizetype at = args.indexOf(QStringLiteral("--no-index")); at >= 0) {
        args.removeAll(QStringLiteral("--no-index"));
        setArchiveIndexesEnabled(false);
    }
    // Global: parse in a locked-down worker process (--no-sandbox, --memory-limit, --time-limit).
    cli::WorkerOptions worker;
    if (auto bad = cli::takeWorkerOptions(args, worker))
        return cli::usage(*bad);
    // Problems that do not stop a command (a damaged header skipped, an unreadable entry) are
    // printed as they happen, each once; the exit status is then 1.
    setDefaultProblemHandler(&cli::reportProblemLine);
    if (args.isEmpty())
        return cli::usage(QStringLiteral("missing command"));
    const QString command = args.first();
    if (command == QLatin1String("--help") || command == QLatin1String("-h") || command == QLatin1String("help")) {
        std::fputs(kHelp, stdout);
        return cli::Success;
    }
    if (command == QLatin1String("--version") || command == QLatin1String("-V")) {
        cli::printLine(QStringLiteral("archivescope-cli %1").arg(programVersion()));
        cli::printLine(libraryVersions());
        return cli::Success;
    }
    // The command named by a[0], run in this process; problems reported on the way make it fail.
    auto runHere = [&](const QStringList &a) {
        if (const cli::CommandInfo *c = cli::findCommand(a.first())) {
            const int status = c->run(a);
            return status == cli::Success && cli::problemsReported() > 0 ? cli::Failure : status;
        }
        return cli::usage(QStringLiteral("unknown command '%1'").arg(a.first()));
    };
    // `trace -- COMMAND ...` runs where COMMAND would: in the worker, which records its own reads;
    // this process writes the trace file it names.
    QStringList parsing = args;
    QStringList exports;
    if (command == QLatin1String("trace")) {
        const qsizetype dashes = args.indexOf(QStringLiteral("--"));
        parsing = dashes >= 0 ? args.mid(dashes + 1) : QStringList();
        const qsizetype output = std::max(args.indexOf(QStringLiteral("-o")), args.indexOf(QStringLiteral("--output")));
        exports << (output >= 0 && output + 1 < args.size() && (dashes < 0 || output < dashes) ? args[output + 1] : QStringLiteral("archivescope-trace.jsonl"));
    }
    auto run = [&] { return command == QLatin1String("trace") ? cli::runTrace(args, runHere) : runHere(args); };
    // `bench --command` (or --prepare) starts the user's own programs, which the worker's
    // lockdown cannot: the whole benchmark runs here, as with --no-sandbox.
    const bool runsCommands = !parsing.isEmpty() && parsing.first() == QLatin1String("bench") && cli::benchStartsPrograms(parsing);
    const cli::CommandInfo *parser = parsing.isEmpty() ? nullptr : cli::findCommand(parsing.first());
    if (!worker.sandbox || !parser || parser->runsIn != cli::RunsIn::Worker || runsCommands ||
        args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h")) ||
        (parsing.first() == QLatin1String("index") && parsing.contains(QStringLiteral("--drop")))) { // removes a file of the cache
        const int status = run();
        writeWorkCounters();
        return status;
    }
    const WorkerEnd end = cli::runParsingWorker(parsing, worker.limits, run, exports);
    writeWorkCounters(end);
    const QStringList specs = cli::specsOf(parsing);
    return cli::workerStatus(end, specs.isEmpty() ? QString() : specs.first(), worker.limits);
}
