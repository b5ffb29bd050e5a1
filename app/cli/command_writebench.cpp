// SPDX-License-Identifier: MIT
// `writebench DIR [options]`: write strategies x file sizes, write calls and write amplification.

#include "argument_parser.h"
#include "bench/bench_runner.h"
#include "bench/write/write_bench.h"
#include "cli_output.h"
#include "commands.h"
#include "io/atomic_file.h"
#include "io/units.h"

#include <QJsonDocument>
#include <algorithm>
#include <csignal>
#include <cstdio>

namespace asc::cli {

static CancelFlag *writeInterrupt = nullptr;
static void onWriteInterrupt(int)
{
    if (writeInterrupt)
        writeInterrupt->cancel();
}

int runWriteBench(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("writebench"),
                     QStringLiteral("Write files of each size into DIR with each write strategy and report, per point: payload bytes,\n"
                                    "write system calls, bytes passed to them, bytes the device really wrote (the block device's\n"
                                    "sectors-written counter, or /proc/self/io write_bytes) and amplification = device / payload.\n"
                                    "Files go to a private folder inside DIR that is removed afterwards, also when interrupted.\n"
                                    "Strategies: stdio-8k, stdio-N, write-N, single-write, pwritev, mmap-write, direct."));
    p.addPositional(QStringLiteral("DIR"), QStringLiteral("a writable directory on the filesystem to measure"));
    QCommandLineParser &parser = p.parser();
    parser.addOption({QStringLiteral("strategy"), QStringLiteral("A write strategy (repeatable; default all)."), QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("file-sizes"), QStringLiteral("File sizes: A:B powers of two, or a list (default 1K:1M)."), QStringLiteral("LIST"), QStringLiteral("1K:1M")});
    parser.addOption({QStringLiteral("buffer"), QStringLiteral("N for the -N strategies, or a sweep: A:B powers of two, or a list (default 8K).\n"
                                                               "A sweep repeats the strategies that use N; stdio-8k and single-write run once."),
                      QStringLiteral("SIZE"), QStringLiteral("8K")});
    parser.addOption({QStringLiteral("runs"), QStringLiteral("Runs per point, medians reported (default 5)."), QStringLiteral("N"), QStringLiteral("5")});
    parser.addOption({QStringLiteral("atomic"), QStringLiteral("Safe replace: temporary file, fsync, rename over the target, fsync the directory.")});
    parser.addOption({QStringLiteral("no-fsync"), QStringLiteral("Do not fsync files (device bytes then depend on writeback timing).")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Write the result as JSON."), QStringLiteral("FILE")});
    if (auto stop = p.parse(args, 1))
        return *stop;
    WriteBenchConfig config;
    config.directory = parser.positionalArguments().first();
    config.strategies = parser.values(QStringLiteral("strategy"));
    auto sizes = parseSizeList(parser.value(QStringLiteral("file-sizes")));
    if (!sizes)
        return usage(QStringLiteral("writebench: ") + sizes.error().message);
    config.fileSizes = *sizes;
    auto buffers = parseSizeList(parser.value(QStringLiteral("buffer")));
    if (!buffers || buffers->empty() || std::any_of(buffers->begin(), buffers->end(), [](uint64_t b) { return b == 0 || b > (1ULL << 30); }))
        return usage(QStringLiteral("writebench: --buffer: not a size or a size list: %1").arg(parser.value(QStringLiteral("buffer"))));
    config.buffer = buffers->front();
    bool ok = false;
    config.runs = parser.value(QStringLiteral("runs")).toInt(&ok);
    if (!ok || config.runs < 1)
        return usage(QStringLiteral("writebench: --runs needs a number >= 1"));
    config.atomic = parser.isSet(QStringLiteral("atomic"));
    config.fsync = !parser.isSet(QStringLiteral("no-fsync"));
    if (*std::max_element(config.fileSizes.begin(), config.fileSizes.end()) > (1ULL << 32))
        return usage(QStringLiteral("writebench: file sizes above 4 GiB are not supported"));

    CancelFlag cancel;
    writeInterrupt = &cancel;
    std::signal(SIGINT, onWriteInterrupt);
    std::signal(SIGTERM, onWriteInterrupt);
    auto printPoint = [](const WritePoint &point) {
        printLine(QStringLiteral("%1 %2 %3: %4 write calls, %5 bytes to them, device %6 (x%7), %8 ms%9")
                      .arg(point.strategy, -14)
                      .arg(sizeLabel(point.fileSize), 9)
                      .arg(QStringLiteral("N=") + sizeLabel(point.buffer), -10)
                      .arg(point.writeCalls, 6)
                      .arg(point.bytesToWriteCalls, 9)
                      .arg(point.deviceBytes < 0 ? QStringLiteral("n/a") : sizeLabel(uint64_t(point.deviceBytes)))
                      .arg(point.amplification, 0, 'f', 2)
                      .arg(point.meanSeconds * 1000, 0, 'f', 2)
                      .arg(point.note.isEmpty() ? QString() : QStringLiteral(" (") + point.note + QLatin1Char(')')));
    };
    auto result = runWriteBenchSweep(config, *buffers, cancel, printPoint);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    writeInterrupt = nullptr;
    if (!result)
        return result.error().kind == ErrorKind::Usage && result.error().message.startsWith(QLatin1String("unknown"))
                   ? usage(QStringLiteral("writebench: ") + result.error().message)
                   : fail(config.directory, result.error());
    for (const QString &warning : result->warnings)
        std::fprintf(stderr, "archivescope-cli: warning: %s\n", qPrintable(warning));
    printLine(QString());
    printLine(QStringLiteral("device bytes from %1 on %2; %3, %4").arg(result->deviceBytesSource, result->filesystem, config.atomic ? QStringLiteral("atomic replace") : QStringLiteral("in place"), config.fsync ? QStringLiteral("fsync") : QStringLiteral("no fsync")));
    for (const QString &line : writeTable(*result))
        printLine(line);
    if (parser.isSet(QStringLiteral("json"))) {
        auto written = writeFileAtomically(parser.value(QStringLiteral("json")), QJsonDocument(toJson(*result)).toJson(QJsonDocument::Indented));
        if (!written)
            return fail(parser.value(QStringLiteral("json")), written.error());
    }
    return Success;
}

} // namespace asc::cli
