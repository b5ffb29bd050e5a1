// SPDX-License-Identifier: MIT
#pragma once
// The write benchmark: files of each size written with each strategy into a private folder of DIR
// (removed afterwards, also on cancel or failure; stale ones of dead runs are removed first),
// counting write calls, bytes passed to them, and bytes the device really wrote: the block
// device's sectors-written counter when DIR's device is found, else /proc/self/io write_bytes.

#include "write_strategy.h"

#include <QJsonObject>
#include <functional>

namespace asc {

// The payload is QRandomGenerator(kWriteBenchSeed).generate() per byte, truncated to the size.
inline constexpr quint32 kWriteBenchSeed = 0x5eed;

struct WriteBenchConfig {
    QString directory;
    QStringList strategies; // empty = all
    std::vector<uint64_t> fileSizes;
    uint64_t buffer = 8192;
    int runs = 5;
    bool atomic = false;
    bool fsync = true;
};

struct WriteRun {
    double seconds = 0;
    uint64_t writeCalls = 0;
    uint64_t bytesToWriteCalls = 0;
    int64_t deviceBytes = -1; // -1 when nothing could count them
    int64_t procWriteBytes = -1;
};

struct WritePoint {
    QString strategy;
    uint64_t fileSize = 0;
    uint64_t buffer = 0;
    std::vector<WriteRun> runs;
    uint64_t writeCalls = 0; // medians over runs
    uint64_t bytesToWriteCalls = 0;
    int64_t deviceBytes = -1;
    double amplification = 0; // device bytes / payload bytes
    double meanSeconds = 0;
    QString note;
};

struct WriteBenchResult {
    WriteBenchConfig config;
    QJsonObject machine;
    QString filesystem;
    QString deviceBytesSource; // "block-stat", "proc-io" or "none"
    QStringList warnings;
    std::vector<WritePoint> points;
};

Result<WriteBenchResult> runWriteBench(const WriteBenchConfig &config, const CancelFlag &cancel = {},
                                       const std::function<void(const WritePoint &)> &pointDone = {});
// The same over several buffer sizes: the strategies that use N run at each, stdio-8k and
// single-write once (with the first). One result; every point carries its buffer.
Result<WriteBenchResult> runWriteBenchSweep(const WriteBenchConfig &config, const std::vector<uint64_t> &buffers,
                                            const CancelFlag &cancel = {},
                                            const std::function<void(const WritePoint &)> &pointDone = {});
// Each point's column or series, index for index: its strategy, with "N=..." when the result
// sweeps buffers and the strategy uses N.
QStringList writeSeriesNames(const WriteBenchResult &result);
QJsonObject toJson(const WriteBenchResult &result);
// The table of DESIGN.md's write case: a row per file size, per strategy "written (×amplification)".
QStringList writeTable(const WriteBenchResult &result);

} // namespace asc
