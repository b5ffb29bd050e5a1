// SPDX-License-Identifier: MIT
// The GUI as a daily tool: the filter searches partitions and filesystems nobody expanded and
// says when nothing matches; the context menu and double-click (Open, Preview, Extract…, Extract
// Here, Copy SPEC, Benchmark This); the extraction dialog (flattened, remembered); partitions
// named by their labels, an extended partition not listed twice, a partition's bytes in hex;
// status messages that end with their work; a failed open shows that file and its error; an
// unrecognised file says so; folders count their items; the focused list is framed; the
// benchmark keeps its settings across restarts, warns of a target smaller than its buffers and
// starts its statistics in run order.

#include "bench/bench_panel.h"
#include "bench/statistics_model.h"
#include "browse/details_pane.h"
#include "browse/entry_filter_model.h"
#include "browse/entry_menu.h"
#include "browse/entry_tree_model.h"
#include "browse/extract_dialog.h"
#include "fixtures.h"
#include "browse/hex_view.h"
#include "browse/entry_tree_view.h"
#include "io/task_pool.h"
#include "main_window.h"
#include "model_search.h"
#include "test_files.h"
#include "window_waits.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QRegularExpression>
#include <QLineEdit>
#include <QMenu>
#include <QMouseEvent>
#include <QScrollBar>
#include <QSemaphore>
#include <QSettings>
#include <QTemporaryDir>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTest>
#include <QThreadPool>
#include <QTimer>
#include <QTableView>
#include <QTreeView>
#include <QHeaderView>

using namespace asc;

class TestDailyUse : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString archive_;

    static QString counterText(ui::MainWindow &window)
    {
        for (QLabel *label : window.statusBar()->findChildren<QLabel *>())
            if (label->text().contains(QStringLiteral("entr")))
                return label->text();
        return {};
    }

    static QAction *menuAction(QMenu *menu, const QString &text)
    {
        for (QAction *action : menu->actions())
            if (action->text().remove(QLatin1Char('&')) == text)
                return action;
        return nullptr;
    }

    // A real double-click: press, release, double-click, release (QTest::mouseDClick leaves out the
    // first release, and a view that drags items is then still "dragging" at the double-click).
    static void doubleClick(QWidget *viewport, QPoint at)
    {
        QTest::mouseClick(viewport, Qt::LeftButton, {}, at);
        QMouseEvent dbl(QEvent::MouseButtonDblClick, at, viewport->mapToGlobal(at), Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(viewport, &dbl);
        QTest::mouseRelease(viewport, Qt::LeftButton, {}, at);
    }

    // A tar of the folder `name` of dir_ (its contents at the top), beside it; empty on failure.
    QString tarOf(const QString &name)
    {
        const QString tarball = dir_.filePath(name + QStringLiteral(".tar"));
        const bool made = test::run(QStringLiteral("bsdtar"), {QStringLiteral("-cf"), tarball, QStringLiteral("-C"), dir_.filePath(name), QStringLiteral(".")}).exitCode == 0;
        return made ? tarball : QString();
    }

    void select(ui::MainWindow &window, const QModelIndex &index)
    {
        window.treeView()->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }

private Q_SLOTS:
    // Remembered settings (the benchmark's, the extraction dialog's) start each test afresh.
    void init() { QSettings().clear(); }

    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ArchiveScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_daily_use"));
        QSettings().clear();
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        test::writeFile(dir_, QStringLiteral("src/docs/readme.txt"), "hello, reader\n");
        test::writeFile(dir_, QStringLiteral("src/docs/deeper/notes.txt"), "notes\n");
        test::writeFile(dir_, QStringLiteral("src/data.bin"), test::seededBytes(5000, 1));
        archive_ = dir_.filePath(QStringLiteral("sample.tar.gz"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-czf"), archive_, QStringLiteral("-C"), dir_.filePath(QStringLiteral("src")), QStringLiteral("docs"), QStringLiteral("data.bin")}).exitCode, 0);
    }

    void filterSearchesWhatNobodyExpanded()
    {
        ui::MainWindow window; // no model tester here: it would fetch (expand) everything itself
        window.show();
        QVERIFY(test::openAndWait(window, test::dataPath(QStringLiteral("images/gpt.v3.qcow2"))));
        QVERIFY(!test::findByName(window.proxy(), QStringLiteral("README.TXT")).isValid());
        window.filterEdit()->setText(QStringLiteral("readme"));
        QTRY_VERIFY_WITH_TIMEOUT(test::findByName(window.proxy(), QStringLiteral("README.TXT")).isValid(), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30000);
        QVERIFY2(counterText(window).startsWith(QStringLiteral("filtered")), qPrintable(counterText(window)));
        QVERIFY(!window.statusBar()->currentMessage().contains(QStringLiteral("Searching")));
        window.filterEdit()->setText(QStringLiteral("no-such-name-anywhere"));
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30000);
        QVERIFY2(counterText(window).startsWith(QStringLiteral("no matches")), qPrintable(counterText(window)));
    }

    // The filter opens no nested archive unless View > Filter Opens Nested Archives says so: a
    // tarball of many .gz members once froze the window for minutes, each member opened (and the
    // tarball decoded from its start) by expandAll().
    void filterOpensNoNestedArchiveByDefault()
    {
        QSettings().remove(QStringLiteral("filter/nestedDepth"));
        for (int i = 0; i < 30; ++i)
            test::writeFile(dir_, QStringLiteral("nested/doc%1/changelog.gz").arg(i), QByteArray());
        QVERIFY(test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("for f in nested/doc*/changelog.gz; do echo entry > x && gzip -c x > $f; done && rm x")}, 60000, dir_.path()).exitCode == 0);
        const QString tarball = dir_.filePath(QStringLiteral("nested.tar.gz"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-czf"), tarball, QStringLiteral("-C"), dir_.filePath(QStringLiteral("nested")), QStringLiteral(".")}).exitCode, 0);
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, tarball));
        const EntryTree &tree = window.browseView()->loader()->tree();
        QCOMPARE(tree.layerCount(), 1);
        auto *view = static_cast<ui::EntryTreeView *>(window.treeView());
        const int fitsBefore = view->fitsDone();
        window.filterEdit()->setText(QStringLiteral("c"));
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30000);
        QTest::qWait(200); // the expansion of matches runs from the event loop
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30000);
        // 30 folders expanded at once fit the Name column once or twice, not once each (each fit
        // measures up to a thousand rows: 2,000 of them froze the window for 20 s).
        QVERIFY2(view->fitsDone() - fitsBefore <= 3, qPrintable(QString::number(view->fitsDone() - fitsBefore)));
        // Every match is shown, opened down to it, and not one member was opened as an archive.
        const QModelIndex match = test::findByName(window.proxy(), QStringLiteral("changelog.gz"));
        QVERIFY(match.isValid());
        QVERIFY(window.treeView()->isExpanded(match.parent()));
        QCOMPARE(tree.layerCount(), 1);
        // The status counts the matches themselves, not the folders shown to lead to them.
        window.filterEdit()->setText(QStringLiteral("CHANGELOG"));
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30000);
        QTRY_VERIFY2(counterText(window).startsWith(QStringLiteral("filtered: 30 matches in")), qPrintable(counterText(window)));
    }

    // A file SPEC in the location bar opens its archive with that file selected and previewed
    // (it used to empty the tree and call the file "not a recognised archive").
    void fileSpecSelectsAndPreviews()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, archive_ + QStringLiteral("!/docs/readme.txt")));
        QTRY_COMPARE(window.detailsPane()->previewKind(), QStringLiteral("text"));
        const QModelIndex current = window.treeView()->currentIndex();
        QVERIFY(current.isValid());
        QCOMPARE(current.data().toString(), QStringLiteral("readme.txt"));
        QVERIFY(test::findByName(window.proxy(), QStringLiteral("data.bin")).isValid()); // the whole archive is there
        QVERIFY(!window.browseView()->banner()->isVisible());
    }

    // A SPEC inside a nested archive ("pkg.deb!/data.tar.xz!/usr/…") opens the .deb with the tree
    // opened down to the entry: control.tar.xz stays reachable (data.tar.xz used to become the
    // root), nothing else is opened, and the file is selected and previewed.
    void specInsideANestedArchiveKeepsTheOuterFile()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("dpkg-deb"));
        QTemporaryDir dir;
        test::writeFile(dir, QStringLiteral("pkg/DEBIAN/control"),
                        "Package: asc-test\nVersion: 1.0\nArchitecture: all\nMaintainer: Test <t@example.org>\nDescription: test\n");
        test::writeFile(dir, QStringLiteral("pkg/usr/share/doc/asc-test/README"), "hello from the deb\n");
        for (int i = 0; i < 50; ++i)
            test::writeFile(dir, QStringLiteral("pkg/usr/share/asc-test/f%1.txt").arg(i, 3, 10, QLatin1Char('0')), "x\n");
        const QString deb = dir.filePath(QStringLiteral("asc-test.deb"));
        const auto built = test::run(QStringLiteral("dpkg-deb"), {QStringLiteral("--root-owner-group"), QStringLiteral("-Zxz"), QStringLiteral("--build"), dir.filePath(QStringLiteral("pkg")), deb});
        QVERIFY2(built.exitCode == 0, built.err.constData());

        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, deb + QStringLiteral("!/data.tar.xz!/usr/share/doc/asc-test/README")));
        QTRY_COMPARE_WITH_TIMEOUT(window.treeView()->currentIndex().data().toString(), QStringLiteral("README"), 20000);
        QTRY_COMPARE(window.detailsPane()->previewKind(), QStringLiteral("text"));
        QVERIFY(test::findByName(window.proxy(), QStringLiteral("control.tar.xz"), QModelIndex(), false).isValid());
        QVERIFY(test::findByName(window.proxy(), QStringLiteral("data.tar.xz"), QModelIndex(), false).isValid());
        QCOMPARE(window.model()->tree().layerCount(), 2); // the .deb and data.tar.xz: nothing else opened
        QCOMPARE(window.currentSpec(), deb);
        QVERIFY(!window.browseView()->banner()->isVisible());
        // The archive itself as the SPEC's end: its row is opened and selected.
        QVERIFY(test::openAndWait(window, deb + QStringLiteral("!/control.tar.xz")));
        const QModelIndex control = test::findByName(window.proxy(), QStringLiteral("control.tar.xz"), QModelIndex(), false);
        QTRY_COMPARE_WITH_TIMEOUT(window.treeView()->currentIndex(), control, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(test::findByName(window.proxy(), QStringLiteral("control"), control).isValid(), 20000);
        QVERIFY(window.treeView()->isExpanded(control));
    }

    // A SPEC naming what is not there: the archive, and an error naming the SPEC.
    void specOfNothingSaysSo()
    {
        ui::MainWindow window;
        window.show();
        const QString missing = archive_ + QStringLiteral("!/docs/no-such-file.txt");
        QVERIFY(test::openAndWait(window, missing));
        QTRY_VERIFY(window.browseView()->banner()->isVisible());
        bool shown = false;
        for (QLabel *label : window.findChildren<QLabel *>())
            shown = shown || (label->isVisible() && label->text().contains(missing) && label->text().contains(QStringLiteral("no such entry")));
        QVERIFY(shown);
        QVERIFY(test::findByName(window.proxy(), QStringLiteral("readme.txt")).isValid()); // the archive is shown
    }

    // A SPEC's entry is scrolled into view, and stays there while rows arriving later (listed
    // after it, sorted above it) push it down.
    void specEntryIsScrolledIntoView()
    {
        QTemporaryDir dir;
        test::writeFile(dir, QStringLiteral("src/zz-target.txt"), "found\n");
        QStringList names{QStringLiteral("zz-target.txt")};
        for (int i = 0; i < 3000; ++i) { // past the first batch of a listing (1,000 entries)
            const QString name = QStringLiteral("a%1.txt").arg(i, 4, 10, QLatin1Char('0'));
            test::writeFile(dir, QStringLiteral("src/") + name, "x\n");
            names << name;
        }
        const QString tar = dir.filePath(QStringLiteral("late.tar"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), QStringList{QStringLiteral("-cf"), tar, QStringLiteral("-C"), dir.filePath(QStringLiteral("src"))} + names).exitCode, 0);
        ui::MainWindow window;
        window.resize(1000, 700);
        window.show();
        QVERIFY(test::openAndWait(window, tar + QStringLiteral("!/zz-target.txt")));
        QTRY_COMPARE_WITH_TIMEOUT(window.treeView()->currentIndex().data().toString(), QStringLiteral("zz-target.txt"), 20000);
        QTRY_VERIFY(!window.isBusy());
        QTRY_VERIFY(window.treeView()->viewport()->rect().contains(window.treeView()->visualRect(window.treeView()->currentIndex())));
        QVERIFY(window.treeView()->verticalScrollBar()->value() > 0);
    }

    // bench/ui_stall.sh's figures: --measure-open with a filter reports the longest stall of the
    // event loop, the filter's first match and end, and that no nested archive was opened.
    void measureOpenReportsStallsAndTheFilter()
    {
        const auto run = test::run(QStringLiteral(GUI_PATH), {QStringLiteral("--measure-open"), archive_, QStringLiteral("--filter"), QStringLiteral("readme")}, 60000);
        QCOMPARE(run.exitCode, 0);
        const QJsonObject result = QJsonDocument::fromJson(run.out.trimmed().split('\n').last()).object();
        QVERIFY2(result.contains(QStringLiteral("max_ui_stall_ms")), run.out.constData());
        QVERIFY(result.value(QStringLiteral("max_ui_stall_ms")).toInteger(-1) >= 0);
        const qint64 first = result.value(QStringLiteral("filter_first_match_ms")).toInteger(-1);
        const qint64 complete = result.value(QStringLiteral("filter_complete_ms")).toInteger(-1);
        QVERIFY2(first >= 0 && complete >= first, run.out.constData());
        QCOMPARE(result.value(QStringLiteral("nested_opened")).toInteger(-1), 0);
        QCOMPARE(result.value(QStringLiteral("entries")).toInteger(), result.value(QStringLiteral("filter_entries")).toInteger());
    }

    // bench/archives.sh's "first 1000 rows visible": timed when the model holds them, before the
    // listing ends (it was once never set, and the bench printed -1).
    void measureOpenTimesTheFirstThousandRows()
    {
        QTemporaryDir many;
        for (int i = 0; i < 1500; ++i)
            test::writeFile(many, QStringLiteral("src/d%1/f%2.txt").arg(i / 100).arg(i), QByteArray::number(i));
        const QString tar = many.filePath(QStringLiteral("many.tar"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-cf"), tar, QStringLiteral("-C"), many.filePath(QStringLiteral("src")), QStringLiteral(".")}).exitCode, 0);
        const auto run = test::run(QStringLiteral(GUI_PATH), {QStringLiteral("--measure-open"), tar}, 60000);
        QCOMPARE(run.exitCode, 0);
        const QJsonObject result = QJsonDocument::fromJson(run.out.trimmed().split('\n').last()).object();
        QVERIFY2(result.value(QStringLiteral("entries")).toInteger() > 1000, run.out.constData());
        const qint64 first = result.value(QStringLiteral("first_1000_rows_ms")).toInteger(-1);
        QVERIFY2(first >= 0 && first <= result.value(QStringLiteral("complete_ms")).toInteger(-1), run.out.constData());
    }

    // Every thread of our pool blocked (as when each waits on the worker for a nested open): the
    // event loop still runs its timers and the window still paints, because nothing of Qt's
    // own (its raster painting uses the global pool) waits on our threads.
    void windowPaintsWhileOurPoolIsBlocked()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, archive_));
        QThreadPool *pool = taskPool();
        QVERIFY(pool != QThreadPool::globalInstance());
        QSemaphore release;
        QSemaphore started;
        const int threads = pool->maxThreadCount();
        for (int i = 0; i < threads; ++i)
            pool->start([&] {
                started.release();
                release.acquire();
            });
        QVERIFY(started.tryAcquire(threads, 20000)); // every thread of ours is now blocked
        int ticks = 0;
        QTimer beat;
        connect(&beat, &QTimer::timeout, &window, [&] { ++ticks; });
        beat.start(1);
        for (int i = 0; i < 5; ++i) {
            const QImage frame = window.grab().toImage(); // a full repaint of the window
            QVERIFY(!frame.isNull());
            QTest::qWait(5);
        }
        QTRY_VERIFY(ticks >= 5);
        release.release(threads);
        pool->waitForDone();
    }

    // The Benchmark settings at the window's default 1200 px: nothing is cut (the combos, the
    // target and the small-target warning were) and nothing scrolls sideways. (At 800 px the
    // window still fits: tst_main_window::usableAt800x600.)
    void benchmarkSettingsAreNotClipped()
    {
        ui::MainWindow window;
        window.resize(1200, 800);
        window.show();
        QVERIFY(test::openAndWait(window, archive_));
        window.workspace()->setCurrentWidget(window.benchPanel());
        auto *scroll = window.benchPanel()->findChild<QScrollArea *>();
        QVERIFY(scroll);
        QTRY_VERIFY(scroll->isVisible());
        QVERIFY2(scroll->viewport()->width() >= scroll->widget()->sizeHint().width(),
                 qPrintable(QStringLiteral("%1 < %2").arg(scroll->viewport()->width()).arg(scroll->widget()->sizeHint().width())));
        QTRY_VERIFY(!scroll->horizontalScrollBar()->isVisible());
    }

    // The filter hides the entry the details show: the details follow the tree (they kept the
    // hidden entry's facts and preview).
    void detailsDropARowTheFilterHid()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, archive_));
        const QModelIndex readme = test::findByName(window.proxy(), QStringLiteral("readme.txt"));
        QVERIFY(readme.isValid());
        select(window, readme);
        QTRY_VERIFY(window.detailsPane()->text().contains(QStringLiteral("readme.txt")));
        window.filterEdit()->setText(QStringLiteral("data"));
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30000);
        QVERIFY(!test::findByName(window.proxy(), QStringLiteral("readme.txt")).isValid());
        QTRY_VERIFY2(!window.detailsPane()->text().contains(QStringLiteral("readme.txt")), qPrintable(window.detailsPane()->text()));
    }

    // A picture previews as one; a .gz entry previews as hex without Qt's SVG reader claiming it
    // and printing "qt.svg: Error while inflating gzip file" (once per .gz, and at every start
    // on the bundled sample).
    void gzipPreviewIsQuietAndPicturesStillShow()
    {
        QImage picture(40, 30, QImage::Format_RGB32);
        picture.fill(Qt::darkCyan);
        QVERIFY(picture.save(dir_.filePath(QStringLiteral("pics/picture.png"))) || (QDir(dir_.path()).mkpath(QStringLiteral("pics")) && picture.save(dir_.filePath(QStringLiteral("pics/picture.png")))));
        QCOMPARE(test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("seq 1 1000 | gzip -c > pics/numbers.gz")}, 60000, dir_.path()).exitCode, 0);
        const QString tarball = dir_.filePath(QStringLiteral("pics.tar"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-cf"), tarball, QStringLiteral("-C"), dir_.filePath(QStringLiteral("pics")), QStringLiteral(".")}).exitCode, 0);
        QTest::failOnWarning(QRegularExpression(QStringLiteral("inflating")));
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, tarball));
        select(window, test::findByName(window.proxy(), QStringLiteral("picture.png")));
        window.detailsPane()->requestPreview(); // as Preview in the menu, or a double-click
        QTRY_COMPARE(window.detailsPane()->previewKind(), QStringLiteral("image"));
        select(window, test::findByName(window.proxy(), QStringLiteral("numbers.gz")));
        window.detailsPane()->requestPreview();
        QTRY_COMPARE(window.detailsPane()->previewKind(), QStringLiteral("hex"));
        QTest::qWait(50); // the preview's warning, if any, would be printed by now
    }

    // Keyboard: Down from the filter reaches the results; Right on a file does not scroll the
    // view sideways; the Name column widens for deep names instead of cutting them to "…".
    void keyboardAndNameColumn()
    {
        const QString deep = QStringLiteral("a-rather-long-folder-name/another-quite-long-folder-name/yet-another-long-folder-name");
        test::writeFile(dir_, QStringLiteral("deep/") + deep + QStringLiteral("/BUILD-instructions-for-this-component.txt"), "x\n");
        const QString tarball = tarOf(QStringLiteral("deep"));
        QVERIFY(!tarball.isEmpty());
        ui::MainWindow window;
        window.resize(1200, 700);
        window.show();
        QVERIFY(test::openAndWait(window, tarball));
        window.filterEdit()->setFocus();
        window.filterEdit()->setText(QStringLiteral("BUILD"));
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30000);
        const QModelIndex leaf = test::findByName(window.proxy(), QStringLiteral("BUILD-instructions-for-this-component.txt"));
        QTRY_VERIFY(leaf.isValid() && window.treeView()->isExpanded(leaf.parent()));
        QTest::keyClick(window.filterEdit(), Qt::Key_Down);
        QVERIFY(window.treeView()->hasFocus());
        QVERIFY(window.treeView()->currentIndex().isValid());
        QTRY_VERIFY(window.treeView()->columnWidth(0) > 320);
        window.treeView()->setCurrentIndex(leaf);
        window.treeView()->horizontalScrollBar()->setValue(0);
        QTest::keyClick(window.treeView(), Qt::Key_Right);
        QCOMPARE(window.treeView()->horizontalScrollBar()->value(), 0);
        QCOMPARE(window.treeView()->currentIndex(), leaf);
    }

    // A name 48 folders deep is shown, not a blank row: the indentation gives way.
    void deepNamesAreShown()
    {
        QString deep;
        for (int level = 0; level < 48; ++level)
            deep += QStringLiteral("level%1/").arg(level);
        test::writeFile(dir_, QStringLiteral("deep48/") + deep + QStringLiteral("bottom.txt"), "x\n");
        const QString tarball = tarOf(QStringLiteral("deep48"));
        QVERIFY(!tarball.isEmpty());
        ui::MainWindow window;
        window.resize(1200, 700);
        window.show();
        QVERIFY(test::openAndWait(window, tarball));
        window.filterEdit()->setText(QStringLiteral("bottom"));
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30000);
        const QModelIndex leaf = test::findByName(window.proxy(), QStringLiteral("bottom.txt"));
        QTRY_VERIFY(leaf.isValid() && window.treeView()->isExpanded(leaf.parent()));
        window.treeView()->scrollTo(leaf);
        // The name's own room in its column: what is left after the indentation.
        QTRY_VERIFY2(window.treeView()->visualRect(leaf).width() >= 120, qPrintable(QStringLiteral("%1 of %2").arg(window.treeView()->visualRect(leaf).width()).arg(window.treeView()->columnWidth(0))));
    }

    // Open With lists the applications the desktop knows for the entry's type (from the XDG
    // data folders' .desktop files, the default first), and opens the entry with the one chosen.
    void openWithListsTheDesktopsApplications()
    {
        QTemporaryDir xdg;
        const QString opened = xdg.filePath(QStringLiteral("opened.txt"));
        test::writeFile(xdg, QStringLiteral("share/applications/copier.desktop"),
                        QStringLiteral("[Desktop Entry]\nType=Application\nName=Copy Tester\nExec=cp %f %1\nMimeType=text/plain;\n").arg(opened).toUtf8());
        test::writeFile(xdg, QStringLiteral("share/applications/viewer.desktop"),
                        "[Desktop Entry]\nType=Application\nName=A Viewer\nExec=true %U\nMimeType=text/plain;\n");
        test::writeFile(xdg, QStringLiteral("share/applications/hidden.desktop"),
                        "[Desktop Entry]\nType=Application\nName=Hidden\nExec=true\nMimeType=text/plain;\nNoDisplay=true\n");
        test::writeFile(xdg, QStringLiteral("share/applications/images.desktop"),
                        "[Desktop Entry]\nType=Application\nName=Pictures Only\nExec=true %f\nMimeType=image/png;\n");
        test::writeFile(xdg, QStringLiteral("config/mimeapps.list"), "[Default Applications]\ntext/plain=copier.desktop\n");
        qputenv("XDG_DATA_HOME", xdg.filePath(QStringLiteral("none")).toUtf8());
        // The system's folder stays listed: the MIME database the type comes from is there.
        qputenv("XDG_DATA_DIRS", (xdg.filePath(QStringLiteral("share")) + QStringLiteral(":/usr/share")).toUtf8());
        qputenv("XDG_CONFIG_HOME", xdg.filePath(QStringLiteral("config")).toUtf8());
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, archive_));
        const QModelIndex readme = test::findByName(window.proxy(), QStringLiteral("readme.txt"));
        QVERIFY(readme.isValid());
        select(window, readme);
        std::unique_ptr<QMenu> menu(window.browseView()->entryMenu()->build(&window));
        auto *with = menu->findChild<QMenu *>(QStringLiteral("openWithMenu"));
        QVERIFY(with && with->isEnabled());
        QStringList names;
        for (QAction *action : with->actions())
            if (!action->isSeparator())
                names << action->text();
        // The default first; hidden ones and other types' left out; one's own command last (the
        // machine's own applications for text may come between).
        QVERIFY2(names.size() >= 3 && names.first() == QStringLiteral("Copy Tester") && names.last() == QStringLiteral("Other Command…"), qPrintable(names.join(QLatin1Char(','))));
        QVERIFY2(names.contains(QStringLiteral("A Viewer")) && !names.contains(QStringLiteral("Hidden")) && !names.contains(QStringLiteral("Pictures Only")),
                 qPrintable(names.join(QLatin1Char(','))));
        with->actions().first()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(opened).size() > 0, 20000);
        QFile copy(opened);
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), QByteArray("hello, reader\n"));
        qunsetenv("XDG_DATA_HOME");
        qunsetenv("XDG_DATA_DIRS");
        qunsetenv("XDG_CONFIG_HOME");
    }

    void contextMenuAndDoubleClick()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, archive_));
        const QModelIndex readme = test::findByName(window.proxy(), QStringLiteral("readme.txt"));
        QVERIFY(readme.isValid());
        select(window, readme);
        std::unique_ptr<QMenu> menu(window.browseView()->entryMenu()->build(&window));
        for (const char *text : {"Open", "Open With", "Preview", "Extract…", "Extract Here", "Copy Path", "Copy SPEC", "Benchmark This", "Properties"})
            QVERIFY2(menuAction(menu.get(), QString::fromUtf8(text)) && menuAction(menu.get(), QString::fromUtf8(text))->isEnabled(), text);
        menuAction(menu.get(), QStringLiteral("Copy SPEC"))->trigger();
        QCOMPARE(QApplication::clipboard()->text(), archive_ + QStringLiteral("!/docs/readme.txt"));
        menuAction(menu.get(), QStringLiteral("Copy Path"))->trigger();
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("docs/readme.txt"));
        menuAction(menu.get(), QStringLiteral("Preview"))->trigger();
        QTRY_COMPARE(window.detailsPane()->previewKind(), QStringLiteral("text"));
        menuAction(menu.get(), QStringLiteral("Benchmark This"))->trigger();
        QCOMPARE(window.workspace()->currentWidget(), window.benchPanel());
        QCOMPARE(window.benchPanel()->target(), archive_ + QStringLiteral("!/docs/readme.txt"));
        window.workspace()->setCurrentIndex(0);

        // Double-click: a file previews (the binary one as hex), a folder expands.
        const QModelIndex data = test::findByName(window.proxy(), QStringLiteral("data.bin"));
        select(window, data);
        QTRY_COMPARE(window.detailsPane()->hexView()->bytes().size(), 5000);
        const QRect cell = window.treeView()->visualRect(data);
        QSignalSpy doubleClicks(window.treeView(), &QAbstractItemView::doubleClicked);
        doubleClick(window.treeView()->viewport(), cell.center());
        QCOMPARE(doubleClicks.count(), 1);
        QTRY_COMPARE(window.detailsPane()->previewKind(), QStringLiteral("hex"));
        const QModelIndex deeper = test::findByName(window.proxy(), QStringLiteral("deeper"));
        window.treeView()->expand(test::findByName(window.proxy(), QStringLiteral("docs")));
        QVERIFY(!window.treeView()->isExpanded(deeper));
        window.treeView()->scrollTo(deeper);
        doubleClick(window.treeView()->viewport(), window.treeView()->visualRect(deeper).center());
        QTRY_VERIFY(window.treeView()->isExpanded(deeper));
    }

    void extractionDialogFlattensAndRemembers()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, archive_));
        const QString target = dir_.filePath(QStringLiteral("flat"));
        // The dialog is modal: fill it in from the event loop.
        QTimer::singleShot(0, &window, [&] {
            auto *dialog = window.findChild<ui::ExtractDialog *>(QStringLiteral("extractDialog"));
            QVERIFY(dialog);
            dialog->setDirectory(target);
            dialog->findChild<QCheckBox *>()->setChecked(true); // without folders
            dialog->accept();
        });
        QSignalSpy done(&window, &ui::MainWindow::extractionFinished);
        window.browseView()->chooseExtraction(); // nothing selected: everything
        QVERIFY(done.count() > 0 || done.wait(20000));
        QVERIFY2(done.first().first().toString().contains(target), qPrintable(done.first().first().toString()));
        QCOMPARE(QDir(target).entryList(QDir::Files | QDir::NoDotAndDotDot, QDir::Name), (QStringList{QStringLiteral("data.bin"), QStringLiteral("notes.txt"), QStringLiteral("readme.txt")}));
        QCOMPARE(QDir(target).entryList(QDir::Dirs | QDir::NoDotAndDotDot), QStringList());
        QCOMPARE(QSettings().value(QStringLiteral("extract/directory")).toString(), target);
        QCOMPARE(QSettings().value(QStringLiteral("extract/flatten")).toBool(), true);

        // Extract Here: beside the archive, in a folder named after it.
        const QModelIndex readme = test::findByName(window.proxy(), QStringLiteral("readme.txt"));
        select(window, readme);
        std::unique_ptr<QMenu> menu(window.browseView()->entryMenu()->build(&window));
        QSignalSpy here(&window, &ui::MainWindow::extractionFinished);
        menuAction(menu.get(), QStringLiteral("Extract Here"))->trigger();
        QVERIFY(here.count() > 0 || here.wait(20000));
        QCOMPARE(test::sha256File(dir_.filePath(QStringLiteral("sample/docs/readme.txt"))), test::sha256("hello, reader\n"));
    }

    void partitionsShowLabelsOnceAndTheirBytes()
    {
        ui::MainWindow window;
        QAbstractItemModelTester tester(window.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.show();
        QVERIFY(test::openAndWait(window, test::dataPath(QStringLiteral("images/gpt.v3.qcow2"))));
        const QModelIndex p1 = test::findByName(window.proxy(), QStringLiteral("p1"));
        QCOMPARE(p1.data().toString(), QStringLiteral("p1 — FIXTURE-FAT32"));
        const QModelIndex type = p1.siblingAtColumn(ui::EntryTreeModel::Type);
        QCOMPARE(type.data(Qt::ToolTipRole).toString(), type.data().toString()); // the full text, however narrow the column
        select(window, p1);
        QTRY_VERIFY(window.detailsPane()->hexView()->bytes().size() > 0); // a partition's bytes, not "No data"

        // MBR with an extended partition: p5 and p6 once, beside p2; p2 cannot be expanded.
        QVERIFY(test::openAndWait(window, test::dataPath(QStringLiteral("images/mbr-fat16-ext2-fat12.raw"))));
        QStringList rows;
        for (int row = 0; row < window.proxy()->rowCount(); ++row)
            rows << window.proxy()->index(row, 0).data().toString().section(QStringLiteral(" — "), 0, 0);
        QCOMPARE(rows, (QStringList{QStringLiteral("p1"), QStringLiteral("p2"), QStringLiteral("p5"), QStringLiteral("p6")}));
        const QModelIndex p2 = test::findByName(window.proxy(), QStringLiteral("p2"));
        QVERIFY(!window.proxy()->hasChildren(p2));
        window.treeView()->expand(p2);
        QTRY_VERIFY(!window.isBusy());
        QCOMPARE(window.proxy()->rowCount(p2), 0);
        QVERIFY(window.bannerText().isEmpty());
    }

    void statusEndsWithTheWorkAndFailuresKeepTheFile()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, archive_));
        // The format's facts read as words, each once: "Filters gzip", not a JSON array or a
        // second, lower-case "format" row.
        const QString details = window.detailsPane()->text();
        QVERIFY2(details.contains(QStringLiteral("Filters")) && details.contains(QStringLiteral("Libarchive format")) &&
                     !details.contains(QStringLiteral("[\"gzip\"]")) && !details.contains(QStringLiteral("\nformat")),
                 qPrintable(details));
        QTRY_VERIFY(!window.statusBar()->currentMessage().startsWith(QStringLiteral("Opening")));
        QVERIFY(window.statusBar()->currentMessage().contains(QFileInfo(archive_).fileName()));
        const int rows = window.model()->tree().size();
        QSignalSpy opened(&window, &ui::MainWindow::opened);
        window.openSpec(dir_.filePath(QStringLiteral("missing.zip")));
        QVERIFY(opened.count() > 0 || opened.wait(20000));
        QCOMPARE(opened.first().at(1).toBool(), false);
        QVERIFY(window.bannerText().contains(QStringLiteral("missing.zip")));
        // The window shows the file that failed: its name, its SPEC to correct, an error (not a
        // note) and no tree of the previous file under it.
        QVERIFY(rows > 1);
        QCOMPARE(window.addressEdit()->text(), dir_.filePath(QStringLiteral("missing.zip")));
        QVERIFY(window.windowTitle().startsWith(QStringLiteral("missing.zip")));
        QCOMPARE(window.model()->tree().size(), 1);
        QVERIFY(window.browseView()->banner()->showsError());
        QVERIFY(!window.findChild<QAction *>(QStringLiteral("extractAction"))->isEnabled());

        const QString text = test::writeFile(dir_, QStringLiteral("plain.dat"), "just some bytes\n");
        opened.clear();
        window.openSpec(text);
        QVERIFY(opened.count() > 0 || opened.wait(20000));
        QCOMPARE(opened.first().at(1).toBool(), true);
        QVERIFY2(window.bannerText().contains(QStringLiteral("not a recognised archive or disk image")), qPrintable(window.bannerText()));
        QVERIFY(!window.browseView()->banner()->showsError()); // a note, in the note colour
    }

    void foldersCountTheirItemsAndFocusIsSeen()
    {
        ui::MainWindow window;
        window.resize(1000, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(test::openAndWait(window, archive_));
        const QModelIndex docs = test::findByName(window.proxy(), QStringLiteral("docs"));
        QCOMPARE(docs.siblingAtColumn(ui::EntryTreeModel::Size).data().toString(), QStringLiteral("2 items")); // readme.txt, deeper/
        const QModelIndex deeper = test::findByName(window.proxy(), QStringLiteral("deeper"));
        QCOMPARE(deeper.siblingAtColumn(ui::EntryTreeModel::Size).data().toString(), QStringLiteral("1 item"));

        // The list with the keyboard focus is framed in the highlight colour; without focus, not.
        auto leftEdge = [&] {
            const QImage shot = window.treeView()->grab().toImage();
            return shot.pixelColor(0, shot.height() / 2);
        };
        const QColor highlight = window.treeView()->palette().color(QPalette::Highlight);
        window.treeView()->setFocus();
        QTRY_VERIFY(window.treeView()->hasFocus());
        QCOMPARE(leftEdge(), highlight);
        window.filterEdit()->setFocus();
        QTRY_VERIFY(!window.treeView()->hasFocus());
        QVERIFY(leftEdge() != highlight);
    }

    void benchmarkRemembersItsSettingsAndWarnsOfTinyTargets()
    {
        const QString tiny = test::writeFile(dir_, QStringLiteral("tiny.bin"), QByteArray(42, 'x'));
        const QString big = test::writeFile(dir_, QStringLiteral("big.bin"), test::seededBytes(1 << 20, 4));
        {
            ui::BenchPanel panel;
            panel.setSizes(8192, 65536);
            panel.setRuns(2, 0);
            panel.setStrategies({QStringLiteral("read"), QStringLiteral("pread")});
            panel.setTarget(big);
            QVERIFY(panel.sizeWarning().isEmpty());
            panel.setTarget(tiny);
            QVERIFY2(panel.sizeWarning().contains(QStringLiteral("42 B")), qPrintable(panel.sizeWarning()));
            panel.setTarget(archive_ + QStringLiteral("!/data.bin"), 5000); // an entry: its size is given
            QVERIFY2(panel.sizeWarning().contains(QStringLiteral("4.9 KiB")) || panel.sizeWarning().contains(QStringLiteral("5000")), qPrintable(panel.sizeWarning()));
            panel.setTarget(big);
            QSignalSpy done(&panel, &ui::BenchPanel::runFinished);
            panel.run();
            QVERIFY(done.wait(60000));
            QCOMPARE(done.first().at(0).toBool(), true);
            // The statistics start in run order: the strategies as the sweep ran them (read
            // before pread, not by name), each by growing buffer.
            auto *table = panel.findChild<QTableView *>(QStringLiteral("benchStatistics"));
            QVERIFY(table);
            QCOMPARE(table->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
            QAbstractItemModel *rows = table->model();
            QCOMPARE(rows->rowCount(), 2 * 4);
            QCOMPARE(rows->index(0, ui::StatisticsModel::Strategy).data().toString(), QStringLiteral("read"));
            QCOMPARE(rows->index(0, ui::StatisticsModel::Buffer).data().toString(), QStringLiteral("8 KiB"));
            QCOMPARE(rows->index(3, ui::StatisticsModel::Buffer).data().toString(), QStringLiteral("64 KiB"));
            QCOMPARE(rows->index(7, ui::StatisticsModel::Strategy).data().toString(), QStringLiteral("pread"));
        }
        // A new window (a restart) starts from the last run's settings.
        ui::BenchPanel again;
        const BenchConfig c = again.config();
        QCOMPARE(c.runs, 2);
        QCOMPARE(c.warmup, 0);
        QCOMPARE(c.buffers, (std::vector<uint64_t>{8192, 16384, 32768, 65536}));
        QStringList strategies = c.strategies;
        strategies.sort();
        QCOMPARE(strategies, (QStringList{QStringLiteral("pread"), QStringLiteral("read")}));
    }
};

QTEST_MAIN(TestDailyUse)
#include "tst_daily_use.moc"
