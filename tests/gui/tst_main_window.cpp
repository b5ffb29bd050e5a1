// SPDX-License-Identifier: MIT
// The main window opens a file given as argument, from a drop on the window, shows its size and
// a hex view of its first 64 KiB, names the file in the title, and shows errors in the window.

#include "details_pane.h"
#include "hex_view.h"
#include "main_window.h"
#include "test_files.h"

#include <QApplication>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QLabel>
#include <QMimeData>
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
};

// (added with the View menu) A closed Benchmark dock comes back from View and with F5; Ctrl+F and
// Ctrl+L focus the filter and the location bar; Esc clears the filter; a new file starts unfiltered.
void TestMainWindow::viewMenuKeysAndFilter()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto *dock = window.findChild<QDockWidget *>(QStringLiteral("benchmark"));
    QVERIFY(dock);
    dock->close();
    QVERIFY(!dock->isVisible());
    QAction *toggle = nullptr, *run = nullptr;
    for (QAction *menu : window.menuBar()->actions()) {
        for (QAction *a : menu->menu()->actions()) {
            if (a->text().remove(QLatin1Char('&')) == QLatin1String("Benchmark Panel"))
                toggle = a;
            if (a->shortcut() == QKeySequence(Qt::Key_F5))
                run = a;
        }
    }
    QVERIFY(toggle && run);
    toggle->trigger();
    QVERIFY(dock->isVisible());
    dock->close();
    run->trigger(); // F5: the run is never invisible
    QVERIFY(dock->isVisible());

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
