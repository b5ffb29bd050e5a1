// SPDX-License-Identifier: MIT
#pragma once
// A benchmark run as plain data: configuration, machine, samples and per-point statistics.
// Written to and read from the JSON layout in CLI.md (and CSV), so results can be compared later.

#include "bench/bench_defaults.h"
#include "bench/command/command_template.h"
#include "io/result.h"
#include "statistics.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <vector>

namespace asc {

enum class CacheMode { Warm,
                       Cold };
QString cacheModeName(CacheMode mode);

struct BenchConfig {
    QString spec;
    QStringList strategies; // names; empty = every applicable strategy
    std::vector<uint64_t> buffers; // bytes
    int runs = bench_defaults::kRuns;
    int warmup = bench_defaults::kWarmup;
    CacheMode cache = CacheMode::Warm;
    int passes = bench_defaults::kPasses;
    QString outputDir; // for the copy strategies
    std::vector<CommandTemplate> commands; // bench --command: the user's own readers
    QString prepare; // bench --prepare: a shell command run before each run, untimed
};

struct Sample {
    double seconds = 0; // wall, steady clock
    uint64_t bytes = 0;
    double user = 0; // CPU seconds (getrusage, whole process)
    double sys = 0;
    uint64_t syscalls = 0; // read calls the strategy made
    int64_t readBytes = -1; // /proc/self/io read_bytes delta (bytes fetched from storage); -1 unknown
    int64_t rchar = -1; // /proc/self/io rchar delta
    // A command's run, for its whole process tree as the kernel counted it (-1: not measured).
    int64_t maxRssBytes = -1;
    int64_t writeCalls = -1;
    int64_t writeBytes = -1; // bytes through write-family calls
    int64_t storageWriteBytes = -1;
    int exitStatus = 0;
};

struct BenchPoint {
    QString strategy;
    uint64_t buffer = 0;
    CacheMode cache = CacheMode::Warm;
    int pass = 1;
    std::vector<Sample> runs;
    Summary mibps; // MiB/s = bytes / 2^20 / seconds, over runs
    QString note; // e.g. a fallback the strategy took, or an unverified cache eviction
    // A command point (bench --command): what ran, and what its one traced run saw on the target.
    bool isCommand = false;
    QString commandTemplate;
    QString command; // expanded
    double requestBytesMedian = -1;
    int64_t targetReadCalls = -1;
    int64_t targetReadBytes = -1;

    double medianSyscalls() const;
};

struct BenchResult {
    QString tool = QStringLiteral("archivescope-cli");
    QString version;
    QJsonObject machine;
    QString spec;
    uint64_t targetBytes = 0;
    BenchConfig config;
    std::vector<BenchPoint> points;
    QStringList notes; // "dd ignores the buffer: ..."
    QStringList skipped; // "read: not a plain file", what was asked for and could not run
};

QJsonObject toJson(const BenchResult &result);
Result<BenchResult> benchResultFromJson(const QJsonObject &json, const QString &name);
// Reads a result saved as JSON (`bench --json`, the GUI's Save Result); errors name the file.
Result<BenchResult> loadBenchResult(const QString &path);
QByteArray toCsv(const BenchResult &result);
// The per-point line of the CLI table: "pread  2 MiB  5123.4 ± 80.1 MiB/s  (5010.2 … 5230.9)".
QString pointLine(const BenchPoint &point, int strategyWidth);
// "pread 2 MiB (warm) is 1.18 ± 0.09 times faster than read 64 KiB" lines, fastest point first.
QStringList summaryLines(const BenchResult &result);

} // namespace asc
