// SPDX-License-Identifier: MIT
// archivescope-screenshots: makes the README's pictures with the application's own window (not
// installed; scripts/screenshots.sh runs it under Xvfb). Driven by the window's signals, not by
// timers:
//   1. opens IMAGE (a disk image), expands its partitions, selects a file: browse.png;
//   2. the context menu on that file: context-menu.png; the Extract dialog: extract-dialog.png;
//   3. benchmarks BENCHFILE with the given strategies: benchmark-mid-run.png halfway,
//      benchmark-done.png and throughput-chart.png at the end;
//   4. a second run (after relabelling the first "first" and this one "second") and the two
//      compared: compare.png.

#include "bench/bench_panel.h"
#include "browse/browse_view.h"
#include "browse/details_pane.h"
#include "browse/entry_filter_model.h"
#include "browse/entry_menu.h"
#include "browse/extract_dialog.h"
#include "main_window.h"
#include "sandbox/process_setup.h"
#include "trace/io_trace_view.h"
#include "trace/trace_menu.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMenu>
#include <QScreen>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QThread>
#include <QTreeView>
#include <cstdio>

using namespace asc;

// The whole screen: menus and dialogs are windows of their own, not part of the main window.
static void grabScreen(const QString &path)
{
    QApplication::processEvents();
    QGuiApplication::primaryScreen()->grabWindow(0).save(path);
}

static QModelIndex findRow(const QAbstractItemModel *model, const QString &prefix, const QModelIndex &parent = {})
{
    for (int row = 0; row < model->rowCount(parent); ++row) {
        const QModelIndex index = model->index(row, 0, parent);
        if (index.data().toString().startsWith(prefix))
            return index;
        if (const QModelIndex deeper = findRow(model, prefix, index); deeper.isValid())
            return deeper;
    }
    return {};
}

static bool waitIdle(ui::MainWindow &window)
{
    QSignalSpy idle(&window, &ui::MainWindow::listingFinished);
    for (int i = 0; i < 300 && window.isBusy(); ++i)
        idle.wait(100);
    return !window.isBusy();
}

int main(int argc, char **argv)
{
    useUtf8Locale();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ArchiveScope-screenshots")); // not the user's settings
    QApplication::setApplicationName(QStringLiteral("ArchiveScope"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Make the README's pictures with the application's own window."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("DIR"), QStringLiteral("Where the pictures go."));
    parser.addPositionalArgument(QStringLiteral("IMAGE"), QStringLiteral("A disk image with partitions to browse."));
    parser.addPositionalArgument(QStringLiteral("BENCHFILE"), QStringLiteral("The file to benchmark."));
    QCommandLineOption strategies(QStringLiteral("strategies"), QStringLiteral("Comma-separated read strategies."), QStringLiteral("LIST"));
    parser.addOption(strategies);
    QCommandLineOption traced(QStringLiteral("trace-archive"), QStringLiteral("A tar.gz whose opening is traced (io-trace-targz.png)."), QStringLiteral("FILE"));
    parser.addOption(traced);
    QCommandLineOption pxar(QStringLiteral("trace-pxar"), QStringLiteral("A pxar archive with a/b/c/d/e/deep.txt (io-trace-pxar.png)."), QStringLiteral("FILE"));
    parser.addOption(pxar);
    parser.process(app);
    if (parser.positionalArguments().size() != 3)
        parser.showHelp(2);
    const QString out = parser.positionalArguments()[0];
    const QString image = parser.positionalArguments()[1];
    const QString benchFile = parser.positionalArguments()[2];

    ui::MainWindow window;
    window.resize(1400, 860);
    window.move(0, 0);
    window.show();

    // 1-2. Browsing a disk image.
    QSignalSpy opened(&window, &ui::MainWindow::opened);
    window.openSpec(image);
    if ((opened.isEmpty() && !opened.wait(30000)) || !opened.first().at(1).toBool() || !waitIdle(window)) {
        std::fprintf(stderr, "archivescope-screenshots: cannot open %s: %s\n", qPrintable(image), qPrintable(window.bannerText()));
        return 1;
    }
    for (const QString &partition : {QStringLiteral("p1"), QStringLiteral("p2")}) {
        window.treeView()->expand(findRow(window.proxy(), partition));
        waitIdle(window);
    }
    const QModelIndex file = findRow(window.proxy(), QStringLiteral("README"));
    if (file.isValid()) {
        window.treeView()->expand(file.parent());
        window.treeView()->selectionModel()->setCurrentIndex(file, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        window.detailsPane()->requestPreview();
        for (int i = 0; i < 500 && window.detailsPane()->previewKind() != QLatin1String("text"); ++i) {
            QApplication::processEvents(QEventLoop::AllEvents, 10);
            QThread::msleep(5);
        }
    }
    QApplication::processEvents();
    window.grab().save(out + QStringLiteral("/browse.png"));
    QMenu *menu = window.browseView()->entryMenu()->build(&window);
    menu->popup(window.treeView()->viewport()->mapToGlobal(window.treeView()->visualRect(file).center()));
    grabScreen(out + QStringLiteral("/context-menu.png"));
    menu->close();
    ui::ExtractDialog dialog(1, &window);
    dialog.setDirectory(QStringLiteral("/home/user/Extracted"));
    dialog.show();
    grabScreen(out + QStringLiteral("/extract-dialog.png"));
    dialog.close();

    // 3-4. Benchmarking a file, twice, and comparing the runs.
    ui::BenchPanel *panel = window.benchPanel();
    window.workspace()->setCurrentWidget(panel);
    if (parser.isSet(strategies))
        panel->setStrategies(parser.value(strategies).split(QLatin1Char(',')));
    panel->setTarget(benchFile);
    panel->setRuns(3, 1);
    bool grabbedMid = false;
    QObject::connect(panel, &ui::BenchPanel::progressed, &window, [&](int done, int total) {
        if (!grabbedMid && done * 2 >= total) {
            grabbedMid = true;
            window.grab().save(out + QStringLiteral("/benchmark-mid-run.png"));
        }
    });
    for (int run = 0; run < 2; ++run) {
        QSignalSpy finished(panel, &ui::BenchPanel::runFinished);
        panel->run();
        if (!finished.wait(600000) || !finished.first().first().toBool()) {
            std::fprintf(stderr, "archivescope-screenshots: the benchmark did not finish\n");
            return 1;
        }
        QApplication::processEvents();
        if (run == 0) {
            window.grab().save(out + QStringLiteral("/benchmark-done.png"));
            if (!panel->exportChart(out + QStringLiteral("/throughput-chart.png")))
                return 1;
        }
    }
    panel->renameRun(0, QStringLiteral("first"));
    panel->renameRun(1, QStringLiteral("second"));
    panel->compareHistory(0, 1);
    // The chart lays itself out in a few deferred passes (the legend moved to the right).
    for (int i = 0; i < 30; ++i) {
        QApplication::processEvents(QEventLoop::AllEvents, 10);
        QThread::msleep(10);
    }
    window.grab().save(out + QStringLiteral("/compare.png"));

    // 5. The Write tab: write amplification of every write strategy, 1 KiB to 1 MiB files.
    QTemporaryDir writeDir;
    QSignalSpy wrote(panel, &ui::BenchPanel::writesFinished);
    if (auto *tabs = panel->findChild<QTabWidget *>())
        tabs->setCurrentIndex(tabs->count() - 1);
    panel->runWrites(writeDir.path(), 1024, 1 << 20, 8192, false, 1);
    if (!wrote.wait(600000) || !wrote.first().first().toBool()) {
        std::fprintf(stderr, "archivescope-screenshots: the write benchmark did not finish\n");
        return 1;
    }
    for (int i = 0; i < 30; ++i) {
        QApplication::processEvents(QEventLoop::AllEvents, 10);
        QThread::msleep(10);
    }
    window.grab().save(out + QStringLiteral("/write-amplification.png"));

    // 6. The I/O view: the reads of opening a tar.gz, drawn over the file.
    if (parser.isSet(traced)) {
        QSignalSpy listed(&window, &ui::MainWindow::listingFinished);
        window.openSpec(parser.value(traced));
        if (!listed.wait(60000))
            return 1;
        QSignalSpy done(window.traceMenu(), &ui::TraceMenu::traced);
        window.traceMenu()->traceOpening();
        if (!done.wait(60000))
            return 1;
        auto *view = done.first().first().value<ui::IoTraceView *>();
        view->resize(1300, 840);
        view->move(0, 0);
        for (int i = 0; i < 30; ++i) {
            QApplication::processEvents(QEventLoop::AllEvents, 10);
            QThread::msleep(10);
        }
        view->grab().save(out + QStringLiteral("/io-trace-window.png"));
        if (!view->exportTo(out + QStringLiteral("/io-trace-targz.png")))
            return 1;
    }

    // 7. Two reads compared in one picture each: the pxar accessor finding one deep file against
    // the decoder's full pass, and a qcow2 disk read with 1 MiB against 4 KiB buffers.
    auto traceOf = [&](auto start) -> std::optional<ui::IoTrace> {
        QSignalSpy done(window.traceMenu(), &ui::TraceMenu::traced);
        start();
        if (!done.wait(120000))
            return std::nullopt;
        auto *view = done.first().first().value<ui::IoTraceView *>();
        ui::IoTrace copy = view->trace();
        view->close();
        return copy;
    };
    if (parser.isSet(pxar)) {
        const QString archive = parser.value(pxar);
        auto accessor = traceOf([&] { window.traceMenu()->traceReading(archive + QStringLiteral("!/a/b/c/d/e/deep.txt")); });
        auto decoder = traceOf([&] { window.traceMenu()->traceBenchPoint(archive, QStringLiteral("pxar-decoder-sync"), 65536); });
        if (!accessor || !decoder || !ui::exportTraceComparison(*accessor, *decoder, out + QStringLiteral("/io-trace-pxar.png")))
            return 1;
    }
    auto large = traceOf([&] { window.traceMenu()->traceBenchPoint(image + QStringLiteral("!/p1"), QStringLiteral("source"), 1 << 20); });
    auto small = traceOf([&] { window.traceMenu()->traceBenchPoint(image + QStringLiteral("!/p1"), QStringLiteral("source"), 4096); });
    if (!large || !small || !ui::exportTraceComparison(*large, *small, out + QStringLiteral("/io-trace-qcow2.png")))
        return 1;
    return 0;
}
