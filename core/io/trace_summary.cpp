// SPDX-License-Identifier: MIT
#include "trace_summary.h"

#include <algorithm>
#include <map>

namespace asc {

std::vector<TraceFileSummary> summarizeTrace(const std::vector<TraceRecord> &records, const QStringList &files)
{
    std::vector<TraceFileSummary> out(size_t(files.size()));
    std::vector<std::vector<std::pair<uint64_t, uint64_t>>> ranges(out.size());
    std::vector<std::map<uint64_t, uint64_t>> histograms(out.size());
    std::vector<std::map<QString, uint64_t>> layers(out.size());
    std::vector<std::optional<uint64_t>> lastEnd(out.size());
    std::vector<std::vector<std::pair<uint64_t, uint64_t>>> runs(out.size());
    for (const TraceRecord &r : records) {
        const size_t f = size_t(r.file);
        TraceFileSummary &s = out[f];
        ++s.requests;
        s.bytesRead += r.length;
        ranges[f].push_back({r.offset, r.offset + r.length});
        uint64_t bucket = 1;
        while (bucket < r.length)
            bucket <<= 1;
        ++histograms[f][bucket];
        layers[f][QString::fromUtf8(r.layer)] += r.length;
        if (lastEnd[f] && *lastEnd[f] == r.offset && !runs[f].empty()) {
            runs[f].back().second += r.length;
        } else {
            if (lastEnd[f])
                ++s.seeks;
            runs[f].push_back({r.offset, r.length});
        }
        lastEnd[f] = r.offset + r.length;
    }
    for (size_t f = 0; f < out.size(); ++f) {
        TraceFileSummary &s = out[f];
        s.file = files[qsizetype(f)];
        auto &rs = ranges[f];
        std::sort(rs.begin(), rs.end());
        uint64_t coveredTo = 0;
        for (const auto &[begin, end] : rs) {
            const uint64_t from = std::max(begin, coveredTo);
            if (end > from)
                s.distinctBytes += end - from;
            coveredTo = std::max(coveredTo, end);
        }
        s.sizeHistogram.assign(histograms[f].begin(), histograms[f].end());
        auto &r = runs[f];
        std::sort(r.begin(), r.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
        r.resize(std::min<size_t>(r.size(), 3));
        s.longestRuns = r;
        s.bytesByLayer.assign(layers[f].begin(), layers[f].end());
        std::sort(s.bytesByLayer.begin(), s.bytesByLayer.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    }
    return out;
}

QJsonObject traceRecordJson(const TraceRecord &record, const QStringList &files)
{
    return QJsonObject{{QStringLiteral("file"), files.value(record.file)},
                       {QStringLiteral("offset"), double(record.offset)},
                       {QStringLiteral("length"), double(record.length)},
                       {QStringLiteral("t"), double(record.tNs) / 1e9},
                       {QStringLiteral("thread"), record.thread},
                       {QStringLiteral("layer"), QString::fromUtf8(record.layer)}};
}

} // namespace asc
