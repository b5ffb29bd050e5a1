// SPDX-License-Identifier: MIT
#include "worker_options.h"

#include "command_table.h"

#include "bench/machine_info.h"
#include "cli_output.h"
#include "io/file_source.h"
#include "open/reading_policy.h"
#include "open/spec.h"
#include "remote/file_requests.h"
#include "remote/parent_answers.h"
#include "io/units.h"

#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <cstring>

namespace asc::cli {

// Takes `--name VALUE` or `--name=VALUE` at args[i]; nullopt when args[i] is not that option.
static std::optional<QString> takeValue(QStringList &args, qsizetype i, const QString &name, bool *missing)
{
    if (args[i] == name) {
        if (i + 1 >= args.size()) {
            *missing = true;
            return QString();
        }
        const QString value = args[i + 1];
        args.remove(i, 2);
        return value;
    }
    if (args[i].startsWith(name + QLatin1Char('='))) {
        const QString value = args[i].mid(name.size() + 1);
        args.remove(i);
        return value;
    }
    return std::nullopt;
}

static WorkerOptions &given()
{
    static WorkerOptions options;
    return options;
}

const WorkerOptions &workerOptions()
{
    return given();
}

std::optional<QString> takeWorkerOptions(QStringList &args, WorkerOptions &options)
{
    for (qsizetype i = 0; i < args.size();) {
        if (args[i] == QLatin1String("--no-sandbox")) {
            options.sandbox = false;
            args.remove(i);
            continue;
        }
        bool missing = false;
        if (auto value = takeValue(args, i, QStringLiteral("--memory-limit"), &missing)) {
            const auto bytes = parseSize(*value);
            if (missing || !bytes || *bytes < (uint64_t(64) << 20))
                return QStringLiteral("--memory-limit: '%1' is not a size of at least 64M (e.g. 512M, 2G)").arg(*value);
            options.limits.lockdown.memoryBytes = *bytes;
            continue;
        }
        if (auto value = takeValue(args, i, QStringLiteral("--time-limit"), &missing)) {
            bool ok = false;
            const int seconds = value->toInt(&ok);
            if (missing || !ok || seconds < 0)
                return QStringLiteral("--time-limit: '%1' is not a number of seconds").arg(*value);
            options.limits.noProgressSeconds = seconds;
            continue;
        }
        ++i;
    }
    given() = options;
    return std::nullopt;
}

// What the worker of `args` (a command, its options, its SPEC) may have: the SPEC's file; for
// `bench`, scratch files in --output-dir and the --json/--csv files, written by the parent.
static WorkerGrants grantsFor(const QStringList &args)
{
    WorkerGrants grants;
    for (const QString &spec : specsOf(args))
        grants.files << splitSpec(spec).file;
    if (args.first() != QLatin1String("bench"))
        return grants;
    for (qsizetype i = 1; i < args.size(); ++i) {
        QString name = args[i], value;
        if (const qsizetype equals = name.indexOf(QLatin1Char('=')); equals > 0 && name.startsWith(QLatin1Char('-'))) {
            value = name.mid(equals + 1);
            name.truncate(equals);
        } else if (i + 1 < args.size()) {
            value = args[i + 1];
        }
        if (name == QLatin1String("--output-dir"))
            grants.scratchDir = value;
        else if (name == QLatin1String("--json") || name == QLatin1String("--csv"))
            grants.exports << value;
    }
    return grants;
}

WorkerEnd runParsingWorker(const QStringList &args, const WorkerLimits &limits, const std::function<int()> &work, const QStringList &exports)
{
    WorkerGrants grants = grantsFor(args);
    grants.exports << exports;
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        WorkerEnd end;
        end.lockdownFailed = true;
        return end;
    }
    prepareToOpenNothing(currentNameCharset());
    WorkerLimits noOpening = limits;
    noOpening.lockdown.mayOpenFiles = false;
    if (args.first() == QLatin1String("bench")) {
        prepareMachineInfo(); // kept across the fork: the worker cannot read /proc/cpuinfo
        // The most rings a strategy holds at once (the pxar accessor's three), polled and not.
        noOpening.lockdown.plainRings = 3;
        noOpening.lockdown.polledRings = 3;
    }
    noOpening.serveFd = pair[0];
    noOpening.serve = [&] { return answerWorkerRequest(pair[0], grants); };
    const int asking = pair[1];
    const WorkerEnd end = runInWorker(
        [&] {
            ::close(pair[0]);
            askParentOn(asking);
            return work();
        },
        noOpening);
    ::close(pair[0]);
    ::close(pair[1]);
    return end;
}

int workerStatus(const WorkerEnd &end, const QString &spec, const WorkerLimits &limits)
{
    if (end.signal == SIGINT)
        return Failure; // the user's Ctrl-C: said nothing more
    auto text = describeWorkerEnd(end, limits.lockdown.memoryBytes, limits.noProgressSeconds);
    if (!text)
        return end.exitCode;
    // The window's words, and which option changes the limit that was reached.
    QString what = text->text;
    if (end.stalled)
        what += QStringLiteral("; --time-limit changes the limit");
    else if (end.outOfMemory)
        what += QStringLiteral("; --memory-limit changes it");
    else if (end.lockdownFailed)
        what += QStringLiteral(" (see above); --no-sandbox parses without it");
    return fail(spec, Error::make(text->kind, spec, what));
}

} // namespace asc::cli
