// SPDX-License-Identifier: MIT
#pragma once
// What a trace says, per file: bytes read against the distinct bytes and the file's size (read
// amplification, re-reads), requests by size (powers of two), seeks (a read that does not start
// where the previous one of that file ended), and the longest sequential runs.

#include "io/trace.h"

#include <QJsonObject>

namespace asc {

struct TraceFileSummary {
    QString file;
    uint64_t requests = 0;
    uint64_t bytesRead = 0;
    uint64_t distinctBytes = 0; // the union of the ranges read
    uint64_t seeks = 0;
    std::vector<std::pair<uint64_t, uint64_t>> sizeHistogram; // (bucket upper bound, requests)
    std::vector<std::pair<uint64_t, uint64_t>> longestRuns; // (offset, bytes), longest first, at most 3
    std::vector<std::pair<QString, uint64_t>> bytesByLayer;
};

std::vector<TraceFileSummary> summarizeTrace(const std::vector<TraceRecord> &records, const QStringList &files);
// One JSON object per record (the trace file's lines): file, offset, length, t (seconds), thread, layer.
QJsonObject traceRecordJson(const TraceRecord &record, const QStringList &files);

} // namespace asc
