// SPDX-License-Identifier: MIT
// How the desktop uses the application: dropping one file opens it, dropping several opens each
// (the first here, the others in windows of their own); recent files are offered again after a
// restart, by absolute path and once per file; a file given or dropped shows Browse whatever
// workspace was last used; window geometry and splitter state come back.

#include "browse/details_pane.h"
#include "browse/entry_filter_model.h"
#include "browse/entry_tree_model.h"
#include "browse/hex_view.h"
#include "open/reading_policy.h"
#include "main_window.h"
#include "model_search.h"
#include "recent_files.h"
#include "test_files.h"
#include "window_set.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QInputDialog>
#include <QTimer>
#include <QTreeView>
#include <QDir>
#include <QTabWidget>
#include <QMenuBar>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QTest>
#include <QUrl>

using namespace asc;

class TestDesktopBehaviour : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    static void drop(QWidget &target, const QStringList &files)
    {
        QMimeData mime;
        QList<QUrl> urls;
        for (const QString &f : files)
            urls << QUrl::fromLocalFile(f);
        mime.setUrls(urls);
        QDragEnterEvent enter(target.rect().center(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&target, &enter);
        QDropEvent event(QPointF(target.rect().center()), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&target, &event);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ArchiveScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_desktop_behaviour"));
        QSettings().clear();
    }

    void dropOneAndSeveral()
    {
        const QString a = test::writeFile(dir_, QStringLiteral("a.bin"), "aaaa");
        const QString b = test::writeFile(dir_, QStringLiteral("b.bin"), "bbbbbb");
        const QString c = test::writeFile(dir_, QStringLiteral("c.bin"), "cccccccc");
        ui::WindowSet windows;
        ui::MainWindow *first = windows.newWindow();
        first->show();
        drop(*first, {a});
        QTRY_COMPARE(first->currentSpec(), a);
        QCOMPARE(int(windows.windows().size()), 1);
        drop(*first, {b, c});
        QTRY_COMPARE(int(windows.windows().size()), 2);
        QTRY_COMPARE(first->currentSpec(), b);
        QTRY_COMPARE(windows.windows()[1]->currentSpec(), c);
        QTRY_COMPARE(windows.windows()[1]->currentSize(), quint64(8));
        // The second window does not sit exactly on the first.
        QVERIFY(windows.windows()[1]->pos() != first->pos());
    }

    void recentFilesSurviveARestart()
    {
        const QString file = test::writeFile(dir_, QStringLiteral("recent.bin"), "recent");
        {
            ui::MainWindow window;
            QSignalSpy opened(&window, &ui::MainWindow::opened);
            window.openSpec(file);
            QVERIFY(opened.count() > 0 || opened.wait(10000));
        }
        QVERIFY(ui::RecentFiles().list().contains(file));
        ui::MainWindow restarted; // a new window reads them from the settings
        QMenu *recent = nullptr;
        for (QAction *a : restarted.menuBar()->actions())
            if (a->menu())
                for (QAction *sub : a->menu()->actions())
                    if (sub->menu() && sub->text().contains(QStringLiteral("Recent")))
                        recent = sub->menu();
        QVERIFY(recent);
        QAction *entry = nullptr;
        for (QAction *a : recent->actions())
            if (a->text() == file)
                entry = a;
        QVERIFY(entry);
        QSignalSpy opened(&restarted, &ui::MainWindow::opened);
        entry->trigger();
        QVERIFY(opened.count() > 0 || opened.wait(10000));
        QCOMPARE(restarted.currentSpec(), file);
    }

    void aRelativeFileIsRememberedByItsAbsolutePathOnce()
    {
        const QString file = test::writeFile(dir_, QStringLiteral("relative.bin"), "relative");
        const QString before = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir_.path()));
        ui::MainWindow window;
        QSignalSpy opened(&window, &ui::MainWindow::opened);
        window.openSpec(QStringLiteral("relative.bin"));
        QVERIFY(opened.count() > 0 || opened.wait(10000));
        QVERIFY(QDir::setCurrent(before));
        QCOMPARE(window.currentSpec(), file);
        QVERIFY(ui::RecentFiles().list().contains(file));
        QVERIFY(!ui::RecentFiles().list().contains(QStringLiteral("relative.bin")));
        // A SPEC inside a file is remembered as its file: one entry per file.
        auto tar = test::run(QStringLiteral("tar"), {QStringLiteral("-cf"), QStringLiteral("inner.tar"), QStringLiteral("relative.bin")}, 30000, dir_.path());
        QCOMPARE(tar.exitCode, 0);
        const QString archive = dir_.filePath(QStringLiteral("inner.tar"));
        opened.clear();
        window.openSpec(archive + QStringLiteral("!/relative.bin"));
        QVERIFY(opened.count() > 0 || opened.wait(10000));
        QVERIFY(ui::RecentFiles().list().contains(archive));
        QVERIFY(!ui::RecentFiles().list().contains(archive + QStringLiteral("!/relative.bin")));
    }

    void aFileGivenOrDroppedShowsBrowse()
    {
        const QString file = test::writeFile(dir_, QStringLiteral("browse.bin"), "browse");
        ui::WindowSet windows;
        ui::MainWindow *window = windows.newWindow();
        window->show();
        window->workspace()->setCurrentIndex(1); // closed last on Benchmark
        windows.openFiles({file}, window);
        QCOMPARE(window->workspace()->currentIndex(), 0);
        window->workspace()->setCurrentIndex(1);
        drop(*window, {file});
        QCOMPARE(window->workspace()->currentIndex(), 0);
    }

    // An encrypted zip entry says how to read it; File > Enter Password… asks, naming the archive,
    // and the entry shown is then read (through the sandboxed worker) to its plain bytes.
    void anEncryptedEntryReadsOnceItsPasswordIsEntered()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("7zz"));
        auto made = test::run(QStringLiteral("/bin/sh"),
                              {QStringLiteral("-c"), QStringLiteral("printf 'plain words\\n' > locked.txt && 7zz a -pSECRET -mem=AES256 locked.zip locked.txt >/dev/null")},
                              30000, dir_.path());
        QVERIFY2(made.exitCode == 0, made.err.constData());
        ui::MainWindow window;
        QAbstractItemModelTester tester(window.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.show();
        QSignalSpy listed(&window, &ui::MainWindow::listingFinished);
        window.openSpec(dir_.filePath(QStringLiteral("locked.zip")));
        QVERIFY(listed.count() > 0 || listed.wait(20000));
        const QModelIndex locked = test::findByName(window.proxy(), QStringLiteral("locked.txt"));
        QVERIFY(locked.isValid());
        // Selected, it asks at once; declined, it says how to give one and does not ask again.
        QStringList asked;
        QStringList answers{QString()};
        QTimer answering;
        connect(&answering, &QTimer::timeout, &window, [&] {
            auto *dialog = window.findChild<QInputDialog *>(QStringLiteral("passwordPrompt"));
            if (!dialog || !dialog->isVisible() || answers.isEmpty())
                return;
            asked << dialog->labelText();
            const QString answer = answers.takeFirst();
            answer.isEmpty() ? dialog->reject() : (dialog->setTextValue(answer), dialog->accept());
        });
        answering.start(20);
        window.treeView()->selectionModel()->setCurrentIndex(locked, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QTRY_COMPARE(asked.size(), 1);
        QVERIFY2(asked[0].contains(QStringLiteral("locked.zip!/locked.txt")), qPrintable(asked[0]));
        QTRY_VERIFY(window.detailsPane()->hexView()->placeholderText().contains(QStringLiteral("Enter Password")));
        QCOMPARE(window.detailsPane()->hexView()->bytes().size(), 0);
        window.treeView()->selectionModel()->clearCurrentIndex();
        window.treeView()->selectionModel()->setCurrentIndex(locked, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QTest::qWait(200);
        QCOMPARE(asked.size(), 1);

        // File > Enter Password…: a wrong one, then asked again (saying so), then the right one.
        QAction *enter = window.findChild<QAction *>(QStringLiteral("enterPassword"));
        QVERIFY(enter);
        answers = QStringList{QStringLiteral("WRONG"), QStringLiteral("SECRET")};
        enter->trigger();
        QTRY_COMPARE(asked.size(), 3);
        QVERIFY2(asked[1].contains(QStringLiteral("locked.zip")), qPrintable(asked[1]));
        QVERIFY2(asked[2].contains(QStringLiteral("does not open")), qPrintable(asked[2]));
        QTRY_COMPARE(window.detailsPane()->hexView()->bytes(), QByteArray("plain words\n"));
        QVERIFY(!ui::RecentFiles().list().join(QLatin1Char(' ')).contains(QStringLiteral("SECRET")));
        setDefaultArchivePasswords({});
    }

    // A SPEC naming an entry, typed while a filter hides it, clears the filter and shows the
    // entry; Tab from the filter goes to the tree (it went to the workspace's tab bar).
    void aTypedSpecIsShownWhateverTheFilter()
    {
        auto made = test::run(QStringLiteral("/bin/sh"),
                              {QStringLiteral("-c"), QStringLiteral("mkdir -p t/a t/b && echo one > t/a/one.txt && echo two > t/b/two.txt && tar -cf filtered.tar -C t a b")},
                              30000, dir_.path());
        QCOMPARE(made.exitCode, 0);
        const QString archive = dir_.filePath(QStringLiteral("filtered.tar"));
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy listed(&window, &ui::MainWindow::listingFinished);
        window.openSpec(archive);
        QVERIFY(listed.count() > 0 || listed.wait(20000));
        window.filterEdit()->setText(QStringLiteral("one"));
        QTRY_VERIFY(!test::findByName(window.proxy(), QStringLiteral("two.txt")).isValid());
        window.activateWindow();
        window.filterEdit()->setFocus();
        QTRY_VERIFY(window.filterEdit()->hasFocus());
        QTest::keyClick(window.filterEdit(), Qt::Key_Tab);
        QTRY_VERIFY(window.treeView()->hasFocus());

        window.openSpec(archive + QStringLiteral("!/b/two.txt"));
        QTRY_VERIFY(window.filterEdit()->text().isEmpty());
        QTRY_VERIFY(test::findByName(window.proxy(), QStringLiteral("two.txt")).isValid());
        QTRY_COMPARE(window.treeView()->currentIndex().data().toString(), QStringLiteral("two.txt"));
    }

    // A typo in the location bar keeps the open tree and says what is wrong, the text kept to
    // correct (it threw the tree away); the title stays the open file's.
    void aTypoInTheLocationBarKeepsTheTree()
    {
        test::writeFile(dir_, QStringLiteral("kept.bin"), "kept");
        auto tar = test::run(QStringLiteral("tar"), {QStringLiteral("-cf"), QStringLiteral("kept.tar"), QStringLiteral("kept.bin")}, 30000, dir_.path());
        QCOMPARE(tar.exitCode, 0);
        const QString archive = dir_.filePath(QStringLiteral("kept.tar"));
        ui::MainWindow window;
        window.show();
        QSignalSpy listed(&window, &ui::MainWindow::listingFinished);
        window.openSpec(archive);
        QVERIFY(listed.count() > 0 || listed.wait(20000));
        const int32_t entries = window.model()->tree().size();
        const QString title = window.windowTitle();
        QSignalSpy opened(&window, &ui::MainWindow::opened);
        const QString typo = dir_.filePath(QStringLiteral("kpet.tar"));
        window.openTypedSpec(typo);
        QVERIFY(opened.count() > 0 || opened.wait(20000));
        QCOMPARE(opened.first().at(1).toBool(), false);
        QCOMPARE(window.model()->tree().size(), entries);
        QVERIFY(test::findByName(window.proxy(), QStringLiteral("kept.bin")).isValid());
        QCOMPARE(window.windowTitle(), title);
        QCOMPARE(window.currentSpec(), archive);
        QVERIFY2(window.bannerText().contains(QStringLiteral("kpet.tar")), qPrintable(window.bannerText()));
        // Opened from elsewhere (a drop, File > Open), a failure shows that file, as before.
        opened.clear();
        window.openSpec(typo);
        QVERIFY(opened.count() > 0 || opened.wait(20000));
        QVERIFY(window.windowTitle().contains(QStringLiteral("kpet.tar")));
    }

    void geometryAndSplitterRestored()
    {
        QByteArray splitterState;
        QSize size;
        {
            ui::MainWindow window;
            window.show();
            window.resize(1000, 720);
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            size = window.size();
            QVERIFY(size.height() <= 900); // the window must fit small screens
            QSplitter *splitter = window.browseView()->splitter();
            QVERIFY(splitter);
            splitter->setSizes({200, 600});
            splitterState = splitter->saveState();
            window.close();
        }
        ui::MainWindow again;
        QCOMPARE(again.size(), size);
        QCOMPARE(again.browseView()->splitter()->saveState(), splitterState);
    }
};

QTEST_MAIN(TestDesktopBehaviour)
#include "tst_desktop_behaviour.moc"
