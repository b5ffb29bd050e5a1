// SPDX-License-Identifier: MIT
// The GUI's I/O view: Tools > Trace I/O of Opening records the reads of a window opening its
// tar.gz (probing, the decompression input), Trace I/O of Reading the Selection those of a
// virtual disk read whole (qcow2 tables and data clusters); the view's model passes
// QAbstractItemModelTester and lists every read; hovering names a read, the wheel zooms, and the
// picture and the reads export (PNG at 2x, SVG, JSON Lines).

#include "bench/bench_panel.h"
#include "main_window.h"
#include "test_files.h"
#include "fixtures.h"
#include "model_search.h"
#include "browse/entry_filter_model.h"
#include <QTreeView>
#include "trace/io_trace_model.h"
#include "trace/io_trace_plot.h"
#include "trace/io_trace_view.h"
#include "trace/trace_menu.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QImage>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

using namespace asc;

class TestIoTraceView : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ArchiveScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_io_trace_view"));
        QSettings().clear();
    }

    void tracesOpeningAndExports()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        test::writeFile(dir_, QStringLiteral("src/big.bin"), test::seededBytes(6 << 20, 2));
        for (int i = 0; i < 30; ++i)
            test::writeFile(dir_, QStringLiteral("src/docs/f%1.txt").arg(i), QByteArray("text ").repeated(100 + i));
        const QString archive = dir_.filePath(QStringLiteral("t.tar.gz"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-czf"), archive, QStringLiteral("-C"), dir_.filePath(QStringLiteral("src")), QStringLiteral(".")}).exitCode, 0);
        ui::MainWindow window;
        window.show();
        QSignalSpy listed(&window, &ui::MainWindow::listingFinished);
        window.openSpec(archive);
        QVERIFY(listed.wait(20000));

        QSignalSpy traced(window.traceMenu(), &ui::TraceMenu::traced);
        window.traceMenu()->traceOpening();
        QVERIFY(traced.wait(20000));
        auto *view = traced.first().first().value<ui::IoTraceView *>();
        QVERIFY(view);
        QAbstractItemModelTester tester(view->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const ui::IoTrace &trace = view->trace();
        QVERIFY(trace.records.size() > 3);
        QCOMPARE(view->model()->rowCount(), int(trace.records.size()));
        QVERIFY(trace.files.contains(archive));
        // The first opening listed the archive and kept its index: opening it again reads the
        // index and the archive's two ends, not the archive.
        QVERIFY2(trace.layers().contains(QStringLiteral("probe")), qPrintable(trace.layers().join(QLatin1String(", "))));
        uint64_t bytes = 0;
        bool readIndex = false;
        for (const TraceRecord &r : trace.records) {
            const QString file = trace.files.value(int(r.file));
            bytes += file == archive ? r.length : 0;
            readIndex = readIndex || file.endsWith(QStringLiteral(".idx"));
        }
        QVERIFY(readIndex);
        QVERIFY2(bytes < uint64_t(QFileInfo(archive).size()) / 4, qPrintable(QString::number(bytes)));
        QVERIFY2(view->summaryText().contains(QStringLiteral("t.tar.gz")), qPrintable(view->summaryText()));

        // Hover: the first read is under the strip's left edge; the wheel zooms in.
        ui::IoTracePlot *plot = view->plot();
        plot->resize(1000, 600);
        QCoreApplication::sendPostedEvents(plot); // its resize event, not a wait
        bool found = false;
        for (int y = 0; y < plot->height() && !found; y += 4)
            found = plot->recordAt(QPoint(75, y)) >= 0;
        QVERIFY(found);
        const auto whole = plot->range();
        QWheelEvent wheel(QPointF(500, 300), plot->mapToGlobal(QPointF(500, 300)), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(plot, &wheel);
        QVERIFY(plot->range().second - plot->range().first < whole.second - whole.first);

        const QString png = dir_.filePath(QStringLiteral("trace.png"));
        QVERIFY(view->exportTo(png).ok());
        QCOMPARE(QImage(png).size(), QSize(2400, 1400));
        const QString svg = dir_.filePath(QStringLiteral("trace.svg"));
        QVERIFY(view->exportTo(svg).ok());
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly) && svgFile.readAll().contains("<svg"));
        const QString jsonl = dir_.filePath(QStringLiteral("trace.jsonl"));
        QVERIFY(view->exportTo(jsonl).ok());
        QFile lines(jsonl);
        QVERIFY(lines.open(QIODevice::ReadOnly));
        QCOMPARE(lines.readAll().count('\n'), qsizetype(trace.records.size()));
        QVERIFY(!view->exportTo(dir_.filePath(QStringLiteral("trace.bmpx"))).ok());
    }

    void tracesTheNextAction()
    {
        // Expanding a partition of a disk image: its filesystem is read, through the qcow2 layer.
        ui::MainWindow window;
        window.show();
        QSignalSpy listed(&window, &ui::MainWindow::listingFinished);
        window.openSpec(test::dataPath(QStringLiteral("images/gpt.v3.qcow2")));
        QVERIFY(listed.wait(20000));
        QTRY_VERIFY(!window.isBusy());
        QSignalSpy traced(window.traceMenu(), &ui::TraceMenu::traced);
        window.traceMenu()->traceNextAction();
        QVERIFY(window.traceMenu()->isTracing());
        // One recording at a time: another window's request is refused, not mixed in.
        ui::MainWindow other;
        other.traceMenu()->traceReading(test::dataPath(QStringLiteral("images/gpt.v3.qcow2")));
        QVERIFY(!other.traceMenu()->isTracing());
        const QModelIndex p2 = test::findByName(window.proxy(), QStringLiteral("p2"));
        QVERIFY(p2.isValid());
        window.treeView()->expand(p2);
        QVERIFY(traced.wait(20000));
        auto *view = traced.first().first().value<ui::IoTraceView *>();
        QVERIFY(view && !view->trace().records.empty());
        QVERIFY2(view->trace().layers().contains(QStringLiteral("qcow2 data cluster")), qPrintable(view->trace().layers().join(QLatin1String(", "))));
        QVERIFY(!window.traceMenu()->isTracing());
    }

    void tracesReadingAVirtualDisk()
    {
        ui::MainWindow window;
        QSignalSpy traced(window.traceMenu(), &ui::TraceMenu::traced);
        window.traceMenu()->traceReading(test::dataPath(QStringLiteral("images/gpt.v3.qcow2")));
        QVERIFY(traced.wait(20000));
        auto *view = traced.first().first().value<ui::IoTraceView *>();
        QVERIFY(view);
        QVERIFY2(view->trace().layers().contains(QStringLiteral("qcow2 data cluster")) && view->trace().layers().contains(QStringLiteral("qcow2 L2 table")),
                 qPrintable(view->trace().layers().join(QLatin1String(", "))));
    }
};

QTEST_MAIN(TestIoTraceView)
#include "tst_io_trace_view.moc"
