// SPDX-License-Identifier: MIT
#include "io/task_pool.h"
#include "trace_menu.h"

#include "bench/bench_panel.h"
#include "bench/command/command_run.h"
#include "bench/read_target.h"
#include "open/spec.h"
#include "browse/browse_view.h"
#include "io/trace.h"
#include "io_trace_view.h"
#include "main_window.h"
#include "io/units.h"
#include "when_finished.h"

#include <QFileInfo>
#include <QStatusBar>
#include <QtConcurrent/QtConcurrentRun>

namespace asc::ui {

TraceMenu::TraceMenu(MainWindow *window)
    : QMenu(tr("&Tools"), window),
      window_(window)
{
    addAction(tr("Trace I/O of &Opening This File"), this, &TraceMenu::traceOpening);
    addAction(tr("Trace I/O of the &Next Action"), this, &TraceMenu::traceNextAction);
    addAction(tr("Trace I/O of &Reading the Selection"), this, [this] { traceReading(window_->benchPanel()->target()); });
    addAction(tr("Trace I/O of a &Benchmark Point"), this, [this] {
        const BenchConfig config = window_->benchPanel()->config();
        if ((config.strategies.isEmpty() && config.commands.empty()) || config.buffers.empty()) {
            window_->statusBar()->showMessage(tr("Choose a strategy or a command, and buffer sizes, in the Benchmark workspace first."));
            return;
        }
        // A strategy if one is checked, else the first of the user's commands.
        if (config.strategies.isEmpty())
            traceCommandPoint(config.spec, config.commands.front(), config.buffers.front());
        else
            traceBenchPoint(config.spec, config.strategies.first(), config.buffers.front());
    });
}

// One recording at a time in the process: a second would clear the first's records.
bool TraceMenu::refuseWhileRecording()
{
    if (!asc::IoTrace::enabled())
        return false;
    window_->statusBar()->showMessage(tr("A trace is already recording (in this or another window): wait for it to finish."));
    return true;
}

void TraceMenu::finish(const QString &title)
{
    tracing_ = false;
    auto *view = new IoTraceView(collectTrace(title), window_);
    view->show();
    window_->statusBar()->showMessage(tr("Traced: %1").arg(title));
    Q_EMIT traced(view);
}

void TraceMenu::traceOpening()
{
    if (refuseWhileRecording())
        return;
    const QString spec = window_->currentSpec();
    if (spec.isEmpty() || tracing_) {
        window_->statusBar()->showMessage(tr("Open a file first: its opening is what is traced."));
        return;
    }
    tracing_ = true;
    const QString title = tr("Opening %1").arg(QFileInfo(splitSpec(spec).file).fileName());
    // Until the listing ends (or the open fails): every read of every file, this window's.
    auto done = std::make_shared<QMetaObject::Connection>();
    auto failed = std::make_shared<QMetaObject::Connection>();
    auto end = [this, done, failed, title] {
        disconnect(*done);
        disconnect(*failed);
        finish(title);
    };
    *done = connect(window_, &MainWindow::listingFinished, this, end);
    *failed = connect(window_, &MainWindow::opened, this, [end](const QString &, bool ok) {
        if (!ok)
            end();
    });
    asc::IoTrace::start();
    window_->openSpec(spec);
}

void TraceMenu::traceNextAction()
{
    if (refuseWhileRecording())
        return;
    const QString spec = window_->currentSpec();
    if (spec.isEmpty() || tracing_) {
        window_->statusBar()->showMessage(tr("Open a file first: what you do in it next is what is traced."));
        return;
    }
    tracing_ = true;
    const QString title = tr("Next action in %1").arg(QFileInfo(splitSpec(spec).file).fileName());
    auto connections = std::make_shared<std::vector<QMetaObject::Connection>>();
    auto started = std::make_shared<bool>(false);
    auto end = [this, connections, title] {
        for (const auto &c : *connections)
            disconnect(c);
        finish(title);
    };
    BrowseView *browse = window_->browseView();
    connections->push_back(connect(browse, &BrowseView::busyChanged, this, [browse, started, end] {
        if (browse->isBusy())
            *started = true;
        else if (*started)
            end();
    }));
    connections->push_back(connect(window_, &MainWindow::extractionFinished, this, end));
    asc::IoTrace::start();
    window_->statusBar()->showMessage(tr("Recording the reads of your next action: expand a folder, filter, or extract…"));
}

void TraceMenu::traceReading(const QString &spec)
{
    // Reading it whole is the "source" strategy's run with 1 MiB reads.
    recordRun(spec, QStringLiteral("source"), uint64_t(1) << 20, tr("Reading %1").arg(QFileInfo(spec).fileName()));
}

void TraceMenu::traceBenchPoint(const QString &spec, const QString &strategy, uint64_t buffer)
{
    recordRun(spec, strategy, buffer, tr("%1, %2 buffers, %3").arg(strategy, sizeLabel(buffer), QFileInfo(splitSpec(spec).file).fileName()));
}

void TraceMenu::traceCommandPoint(const QString &spec, const CommandTemplate &command, uint64_t buffer)
{
    if (refuseWhileRecording() || tracing_)
        return;
    if (spec.isEmpty()) {
        window_->statusBar()->showMessage(tr("Choose a benchmark target first: the command reading it is what is traced."));
        return;
    }
    tracing_ = true;
    const QString title = tr("%1, %2 buffers, %3").arg(command.name, sizeLabel(buffer), QFileInfo(splitSpec(spec).file).fileName());
    window_->statusBar()->showMessage(tr("Tracing: %1…").arg(title));
    // The command's reads are seen by the kernel (a traced run of its process tree), in this
    // process: the worker cannot start programs.
    struct Traced {
        QString file;
        std::vector<TargetRead> reads;
        QString error;
    };
    whenFinished(this, QtConcurrent::run(taskPool(), [spec, command, buffer] {
                     Traced traced;
                     auto target = openReadTarget(spec);
                     if (!target) {
                         traced.error = target.error().toString();
                         return traced;
                     }
                     auto run = runCommand(command, target->target, buffer, true, CancelFlag{});
                     if (!run) {
                         traced.error = run.error().toString();
                         return traced;
                     }
                     traced.file = target->target.filePath.isEmpty() ? spec : target->target.filePath;
                     traced.reads = std::move(run->tree.targetReads);
                     return traced;
                 }),
                 [this, title](Traced traced) {
                     asc::IoTrace::start();
                     for (const TargetRead &r : traced.reads)
                         asc::IoTrace::recordFrom(traced.file, r.offset, r.length, r.tNs, r.pid, QByteArray(r.call));
                     if (!traced.error.isEmpty())
                         window_->statusBar()->showMessage(traced.error);
                     finish(title);
                 });
}

void TraceMenu::recordRun(const QString &spec, const QString &strategy, uint64_t buffer, const QString &title)
{
    if (refuseWhileRecording())
        return;
    StrategyPtr s = findReadStrategy(strategy);
    if (spec.isEmpty() || !s || tracing_) {
        window_->statusBar()->showMessage(tr("Choose a file, an entry or a benchmark target first: reading it is what is traced."));
        return;
    }
    tracing_ = true;
    window_->statusBar()->showMessage(tr("Tracing: %1…").arg(title));
    // One run of the strategy, where the bench would run it (in a worker with the sandbox on):
    // the worker's reads come back into this process's trace.
    BenchConfig config;
    config.spec = spec;
    config.strategies = {strategy};
    config.buffers = {buffer};
    config.runs = 1;
    config.warmup = 0;
    auto worker = startBenchWorker(config);
    asc::IoTrace::start();
    whenFinished(this, QtConcurrent::run(taskPool(), [config, worker]() -> QString {
                     if (!worker)
                         return worker.error().toString();
                     auto outcome = runSweep(*worker, config, CancelFlag{}, {});
                     return outcome ? QString() : outcome.error().toString();
                 }),
                 [this, title](QString error) {
                     if (!error.isEmpty())
                         window_->statusBar()->showMessage(error);
                     finish(title);
                 });
}

} // namespace asc::ui
