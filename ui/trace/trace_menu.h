// SPDX-License-Identifier: MIT
#pragma once
// Tools > Trace I/O: records every read while the window opens its file again, during the next
// action (an expansion, a filter, an extraction), while the
// selected entry (the benchmark's target) is read whole on a worker thread, or while one
// benchmark point runs (the first chosen strategy at the smallest buffer of the sweep), then
// shows the I/O view of what was read.

#include "bench/command/command_template.h"

#include <QMenu>

namespace asc::ui {

class IoTraceView;
class MainWindow;

class TraceMenu : public QMenu {
    Q_OBJECT
public:
    explicit TraceMenu(MainWindow *window);
    void traceOpening();
    // Records from now until the window's next piece of work ends: expanding a folder or a
    // container, a filter reading the rest of the tree, an extraction.
    void traceNextAction();
    void traceReading(const QString &spec);
    // One benchmark point: `strategy` reading `spec` whole with buffers of `buffer` bytes.
    void traceBenchPoint(const QString &spec, const QString &strategy, uint64_t buffer);
    // One point of the user's own command: every read-family call of its process tree on the target.
    void traceCommandPoint(const QString &spec, const asc::CommandTemplate &command, uint64_t buffer);
    bool isTracing() const { return tracing_; }

Q_SIGNALS:
    void traced(asc::ui::IoTraceView *view);

private:
    void finish(const QString &title);
    bool refuseWhileRecording();
    // Records `strategy` reading `spec` whole with `buffer`-byte reads, on a worker thread.
    void recordRun(const QString &spec, const QString &strategy, uint64_t buffer, const QString &title);
    MainWindow *window_;
    bool tracing_ = false;
};

} // namespace asc::ui
