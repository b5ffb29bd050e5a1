// SPDX-License-Identifier: MIT
// The main window opens a file given as argument, from a drop on the window, shows its size and
// a hex view of its first 64 KiB, names the file in the title, and shows errors in the window.

#include "browse/details_pane.h"
#include "browse/hex_view.h"
#include "browse/problem_banner.h"
#include "bench/bench_panel.h"
#include "benchmark_chart.h"
#include "main_window.h"
#include "test_files.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QDialog>
#include <QPlainTextEdit>
#include <QChart>
#include <QLegend>
#include <QPushButton>
#include <QTabWidget>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QLabel>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QUrl>

using namespace asc;

class TestMainWindow : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    static bool waitOpened(ui::MainWindow &, QSignalSpy &spy)
    {
        return spy.count() > 0 || spy.wait(20000);
    }

private Q_SLOTS:
    // Remembered settings (the benchmark's, the extraction dialog's) start each test afresh.
    void init() { QSettings().clear(); }

    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ArchiveScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_main_window"));
    }

    void startsWithoutFile()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.currentSpec(), QString());
        QCOMPARE(window.windowTitle(), QStringLiteral("ArchiveScope"));
    }

    void opensFileArgument()
    {
        const QByteArray bytes = test::seededBytes(100000, 1);
        const QString path = test::writeFile(dir_, QStringLiteral("argument.bin"), bytes);
        ui::MainWindow window;
        window.show();
        QSignalSpy spy(&window, &ui::MainWindow::opened);
        window.openSpec(path);
        QVERIFY(waitOpened(window, spy));
        QCOMPARE(spy.first().at(1).toBool(), true);
        QCOMPARE(window.currentSpec(), path);
        QCOMPARE(window.currentSize(), quint64(100000));
        QVERIFY(window.windowTitle().contains(QStringLiteral("argument.bin")));
        QCOMPARE(window.hexView()->bytes(), bytes.left(64 * 1024));
        QVERIFY(window.hexView()->toPlainText().startsWith(QStringLiteral("00000000  ")));
        QVERIFY2(window.detailsPane()->text().contains(QStringLiteral("100000 bytes")), qPrintable(window.detailsPane()->text()));
    }

    // A folder whose name ends in "!" is part of the file's path, not a SPEC separator: the
    // title names the file (the window once split by hand and called it "odd!/plain.bin").
    void folderWithBangInItsName()
    {
        const QString path = test::writeFile(dir_, QStringLiteral("odd!/plain.bin"), test::seededBytes(5000, 4));
        ui::MainWindow window;
        QSignalSpy spy(&window, &ui::MainWindow::opened);
        window.openSpec(path);
        QVERIFY(waitOpened(window, spy));
        QCOMPARE(spy.first().at(1).toBool(), true);
        QCOMPARE(window.windowTitle(), QStringLiteral("plain.bin — ArchiveScope"));
    }

    // Two files whose names differ after a "!": each is a file of its own, so the filter typed
    // for one does not stick to the other (the window once split SPECs by hand at '!').
    void filterBelongsToItsFileEvenWithBangs()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        test::writeFile(dir_, QStringLiteral("bang/inside.txt"), "text\n");
        const QString a = dir_.filePath(QStringLiteral("x!a.tar"));
        const QString b = dir_.filePath(QStringLiteral("x!b.tar"));
        for (const QString &tar : {a, b})
            QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-cf"), tar, QStringLiteral("-C"), dir_.filePath(QStringLiteral("bang")), QStringLiteral("inside.txt")}).exitCode, 0);
        ui::MainWindow window;
        QSignalSpy spy(&window, &ui::MainWindow::opened);
        window.openSpec(a);
        QVERIFY(waitOpened(window, spy));
        QVERIFY(spy.first().at(1).toBool()); // opened: the next open compares files
        window.filterEdit()->setText(QStringLiteral("*.txt"));
        QCOMPARE(window.filterEdit()->text(), QStringLiteral("*.txt"));
        spy.clear();
        window.openSpec(b);
        QVERIFY(waitOpened(window, spy));
        QVERIFY2(window.filterEdit()->text().isEmpty(), "the filter stuck to another file");
    }

    void opensDroppedFile()
    {
        const QString path = test::writeFile(dir_, QStringLiteral("dropped.bin"), test::seededBytes(4321, 2));
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy spy(&window, &ui::MainWindow::opened);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        const QPoint at = window.rect().center();
        QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QVERIFY(waitOpened(window, spy));
        QCOMPARE(window.currentSpec(), path);
        QCOMPARE(window.currentSize(), quint64(4321));
    }

    void viewMenuKeysAndFilter();

    // At 800x600 nothing is cut off: every visible button of both workspaces lies inside the
    // window, and the window really is that small (no minimum size forcing it wider).
    void usableAt800x600()
    {
        ui::MainWindow window;
        window.resize(800, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(window.width() <= 800 && window.height() <= 600, qPrintable(QStringLiteral("%1x%2").arg(window.width()).arg(window.height())));
        // A result of eight strategies over the default sweep: the buffer labels and the
        // strategies' names are shown whole (Qt cut them to "…" and "pxar-acces…").
        BenchResult result;
        result.config.runs = 3;
        for (uint64_t buffer = 4096; buffer <= (16u << 20); buffer *= 2)
            result.config.buffers.push_back(buffer);
        for (const char *strategy : {"read", "pread", "mmap", "stdio", "uring-qd4", "pxar-decoder-sync", "pxar-accessor-sync", "pxar-accessor-async"}) {
            for (uint64_t buffer : result.config.buffers) {
                BenchPoint point;
                point.strategy = QString::fromLatin1(strategy);
                point.buffer = buffer;
                point.mibps.mean = point.mibps.median = 1000;
                point.mibps.min = 900;
                point.mibps.max = 2000;
                point.mibps.count = 3;
                result.points.push_back(point);
            }
        }
        window.benchPanel()->chart()->setResults({{QString(), result}});
        window.workspace()->setCurrentWidget(window.benchPanel());
        QChart *chart = window.benchPanel()->chart()->chart();
        auto *buffers = qobject_cast<QAbstractAxis *>(chart->axes(Qt::Horizontal).first());
        QTRY_VERIFY(chart->plotArea().width() > 0);
        QTRY_VERIFY(!buffers->labelsTruncated());
        QCOMPARE(chart->legend()->alignment(), Qt::AlignRight);
        for (int page = 0; page < window.workspace()->count(); ++page) {
            window.workspace()->setCurrentIndex(page);
            QApplication::processEvents();
            for (QPushButton *button : window.findChildren<QPushButton *>()) {
                if (!button->isVisibleTo(&window) || !button->isVisible())
                    continue;
                const QRect where(button->mapTo(&window, QPoint()), button->size());
                QVERIFY2(window.rect().contains(where), qPrintable(button->text() + QStringLiteral(" at %1,%2 %3x%4").arg(where.x()).arg(where.y()).arg(where.width()).arg(where.height())));
                QVERIFY2(button->width() >= button->minimumSizeHint().width(), qPrintable(button->text() + QStringLiteral(" is squeezed")));
            }
        }
    }
    void showsErrorsInTheWindow()
    {
        ui::MainWindow window;
        window.show();
        QSignalSpy spy(&window, &ui::MainWindow::opened);
        const QString missing = dir_.filePath(QStringLiteral("missing"));
        window.openSpec(missing);
        QVERIFY(waitOpened(window, spy));
        QCOMPARE(spy.first().at(1).toBool(), false);
        bool shown = false;
        for (QLabel *label : window.findChildren<QLabel *>())
            shown = shown || (label->isVisible() && label->text().contains(missing) && label->text().contains(QStringLiteral("No such file")));
        QVERIFY(shown);
    }

    // "Details…" in the problem banner shows every problem at once, not a box whose problems
    // wait behind a second click on "Show Details…".
    void problemDetailsInOneClick()
    {
        QWidget window;
        auto *banner = new ui::ProblemBanner(&window);
        window.show();
        banner->addProblems(QStringLiteral("f.tar"), {Error::format(QStringLiteral("f.tar"), 512, QStringLiteral("first")),
                                                      Error::format(QStringLiteral("f.tar"), 1024, QStringLiteral("second"))});
        Q_EMIT banner->linkActivated(QStringLiteral("#problems"));
        auto *dialog = window.findChild<QDialog *>(QStringLiteral("problemDetails"));
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        auto *list = dialog->findChild<QPlainTextEdit *>(QStringLiteral("problemList"));
        QVERIFY(list && list->isVisible());
        QVERIFY2(list->toPlainText().contains(QStringLiteral("first")) && list->toPlainText().contains(QStringLiteral("second")), qPrintable(list->toPlainText()));
        dialog->close();
    }
};

// The tree gets the room: inspecting is the first job, benchmarking a second workspace one key
// away (Ctrl+2, or F5, which runs it where it can be seen; Ctrl+1 goes back), with Run and Cancel
// at the top of it. Ctrl+F and Ctrl+L focus the filter and the location bar; Esc clears the
// filter; a new file starts unfiltered.
void TestMainWindow::viewMenuKeysAndFilter()
{
    ui::MainWindow window;
    window.resize(1200, 780);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTabWidget *workspace = window.workspace();
    QCOMPARE(workspace->currentIndex(), 0);
    QVERIFY2(window.treeView()->height() > window.height() * 3 / 5, qPrintable(QString::number(window.treeView()->height())));
    QTest::keyClick(&window, Qt::Key_2, Qt::ControlModifier);
    QCOMPARE(workspace->currentWidget(), window.benchPanel());
    auto *runButton = window.benchPanel()->findChild<QPushButton *>(QStringLiteral("benchRun"));
    auto *cancelButton = window.benchPanel()->findChild<QPushButton *>(QStringLiteral("benchCancel"));
    QVERIFY(runButton && cancelButton);
    for (QPushButton *button : {runButton, cancelButton}) {
        QVERIFY(button->isVisible());
        const QRect where(button->mapTo(&window, QPoint()), button->size());
        QVERIFY2(window.rect().contains(where) && where.top() < window.height() / 4, qPrintable(QStringLiteral("%1,%2").arg(where.x()).arg(where.y())));
    }
    QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
    QCOMPARE(workspace->currentIndex(), 0);
    QAction *run = nullptr;
    for (QAction *menu : window.menuBar()->actions())
        for (QAction *a : menu->menu()->actions())
            if (a->shortcut() == QKeySequence(Qt::Key_F5))
                run = a;
    QVERIFY(run);
    run->trigger(); // F5: the run is never invisible
    QCOMPARE(workspace->currentWidget(), window.benchPanel());
    window.benchPanel()->cancel();
    QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);

    QTest::keyClick(&window, Qt::Key_F, Qt::ControlModifier);
    QTRY_VERIFY(window.filterEdit()->hasFocus());
    QTest::keyClicks(window.filterEdit(), QStringLiteral("*.txt"));
    QCOMPARE(window.filterEdit()->text(), QStringLiteral("*.txt"));
    QTest::keyClick(window.filterEdit(), Qt::Key_Escape);
    QVERIFY(window.filterEdit()->text().isEmpty());
    QTest::keyClick(&window, Qt::Key_L, Qt::ControlModifier);
    QTRY_VERIFY(!window.filterEdit()->hasFocus() && QApplication::focusWidget() && QApplication::focusWidget()->inherits("QLineEdit"));

    const QString a = test::writeFile(dir_, QStringLiteral("a.bin"), "first");
    const QString b = test::writeFile(dir_, QStringLiteral("b.bin"), "second");
    QSignalSpy opened(&window, &ui::MainWindow::opened);
    window.openSpec(a);
    QVERIFY(waitOpened(window, opened));
    window.filterEdit()->setText(QStringLiteral("*.txt"));
    opened.clear();
    window.openSpec(b);
    QVERIFY(waitOpened(window, opened));
    QVERIFY2(window.filterEdit()->text().isEmpty(), "the filter does not stick to the next file");
}

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
