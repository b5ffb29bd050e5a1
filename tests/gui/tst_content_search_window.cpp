// SPDX-License-Identifier: MIT
// Find in Contents in the window (Tools > Find in Contents…, Ctrl+Shift+F): the matches of a
// pattern in every file of the open tar.gz, the zip inside it included, arrive as the search goes
// (the same lines `archivescope-cli grep` prints), with a count; a click selects the entry in the
// tree and its line in the text preview; Stop ends a search; the window never waits on it.

#include "main_window.h"
#include "model_search.h"
#include "search/content_search_panel.h"
#include "test_files.h"
#include "window_waits.h"

#include "browse/details_pane.h"
#include "browse/entry_filter_model.h"
#include "browse/entry_tree_model.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QTimer>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using namespace asc;

class TestContentSearchWindow : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString tarball_;

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ArchiveScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_content_search_window"));
        ASC_REQUIRE_TOOL(QStringLiteral("7zz"));
        qputenv("ARCHIVESCOPE_CLI", CLI_PATH);
        test::writeFile(dir_, QStringLiteral("src/etc/hosts"), "127.0.0.1 localhost\n10.0.0.7 build.example.com build\n");
        QByteArray log;
        for (int i = 1; i <= 400; ++i)
            log += "line " + QByteArray::number(i) + (i == 321 ? " contacted build.example.com\n" : " nothing\n");
        test::writeFile(dir_, QStringLiteral("src/var/log/messages"), log);
        test::writeFile(dir_, QStringLiteral("inner/notes.txt"), "see BUILD.example.com for details\n");
        auto made = test::run(QStringLiteral("/bin/sh"),
                              {QStringLiteral("-c"), QStringLiteral("set -e; cd inner; 7zz a -tzip ../src/inner.zip notes.txt >/dev/null; cd ../src; tar czf ../t.tgz .")},
                              120000, dir_.path());
        QVERIFY2(made.exitCode == 0, made.err.constData());
        tarball_ = dir_.filePath(QStringLiteral("t.tgz"));
    }

    void matchesArriveAndAClickShowsTheLine()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, tarball_));
        QAction *find = window.findChild<QAction *>(QStringLiteral("findInContentsAction"));
        QVERIFY(find);
        find->trigger();
        ui::ContentSearchPanel *panel = window.contentSearch();
        QAbstractItemModelTester tester(panel->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(window.findChild<QDockWidget *>(QStringLiteral("contentSearchDock"))->isVisible());
        QTRY_VERIFY(panel->patternEdit()->hasFocus());
        QSignalSpy finished(panel, &ui::ContentSearchPanel::searchFinished);
        panel->patternEdit()->setText(QStringLiteral("build.example.com"));
        panel->search();
        QVERIFY(finished.wait(60000));
        // grep's lines: the hosts line, line 321 of the log, and (ignoring case) the zip's note.
        QMap<QString, qint64> lines;
        for (int row = 0; row < panel->model()->rowCount(); ++row)
            lines.insert(panel->model()->match(row).spec, panel->model()->match(row).line);
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines.value(tarball_ + QStringLiteral("!/etc/hosts")), 2);
        QCOMPARE(lines.value(tarball_ + QStringLiteral("!/var/log/messages")), 321);
        QCOMPARE(lines.value(tarball_ + QStringLiteral("!/inner.zip!/notes.txt")), 1);
        QVERIFY2(panel->statusLabel()->text().contains(QStringLiteral("3 matches")), qPrintable(panel->statusLabel()->text()));

        // A click: the entry selected in the tree, line 321 selected in its text preview.
        int row = 0;
        while (panel->model()->match(row).line != 321)
            ++row;
        const QModelIndex result = panel->model()->index(row, 0);
        panel->results()->setCurrentIndex(result);
        Q_EMIT panel->results()->activated(result);
        QTRY_COMPARE(window.model()->tree().spec(window.model()->nodeOf(window.proxy()->mapToSource(window.treeView()->currentIndex()))),
                     tarball_ + QStringLiteral("!/var/log/messages"));
        QTRY_COMPARE(window.detailsPane()->textView()->textCursor().selectedText(), QStringLiteral("line 321 contacted build.example.com"));
    }

    // The window's actions win over the location bar's editing keys: a window action on Ctrl+A
    // (which a QLineEdit takes for Select All on every platform; on X11 it takes Ctrl+E, the
    // Extract shortcut, the same way) triggers with the location bar focused, and so does
    // Ctrl+Shift+F, Find in Contents.
    void shortcutsWorkFromTheLocationBar()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(test::openAndWait(window, tarball_));
        auto *selectAllOfTheWindow = new QAction(&window);
        selectAllOfTheWindow->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_A));
        window.addAction(selectAllOfTheWindow);
        QSignalSpy triggered(selectAllOfTheWindow, &QAction::triggered);
        window.activateWindow();
        QTRY_VERIFY(window.isActiveWindow());
        window.addressEdit()->setFocus();
        QTRY_VERIFY(window.addressEdit()->hasFocus());
        QTest::keyClick(window.addressEdit(), Qt::Key_A, Qt::ControlModifier);
        QTRY_COMPARE(triggered.count(), 1);
        QTest::keyClick(window.addressEdit(), Qt::Key_F, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY(window.findChild<QDockWidget *>(QStringLiteral("contentSearchDock"))->isVisible());
        QTRY_VERIFY(window.contentSearch()->patternEdit()->hasFocus());
    }

    void stopEndsTheSearch()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, tarball_));
        ui::ContentSearchPanel *panel = window.contentSearch();
        QSignalSpy finished(panel, &ui::ContentSearchPanel::searchFinished);
        panel->patternEdit()->setText(QStringLiteral("line"));
        panel->search();
        QVERIFY(panel->running());
        panel->stop();
        QVERIFY(!panel->running());
        QTRY_VERIFY(finished.count() == 1);
        QVERIFY2(panel->statusLabel()->text().contains(QStringLiteral("stopped")), qPrintable(panel->statusLabel()->text()));
    }
};

QTEST_MAIN(TestContentSearchWindow)
#include "tst_content_search_window.moc"
