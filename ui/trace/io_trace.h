// SPDX-License-Identifier: MIT
#pragma once
// A recorded I/O trace as the GUI holds it: the reads (core's TraceRecord), the files they read
// and their sizes, and what was traced ("Opening disk.qcow2").

#include "io/trace.h"

#include <QString>
#include <QStringList>
#include <vector>

namespace asc::ui {

struct IoTrace {
    QString title;
    QStringList files;
    std::vector<uint64_t> fileSizes; // per file (0 when unknown)
    std::vector<TraceRecord> records;
    int64_t durationNs() const { return records.empty() ? 0 : records.back().tNs; }
    // The layers in order of first appearance (a stable colour each).
    QStringList layers() const;
};

// Stops the global recording and collects it with `title`, sizing each file from the disk.
IoTrace collectTrace(const QString &title);

} // namespace asc::ui
