// SPDX-License-Identifier: MIT
// The main window opens a file given as argument, from a drop on the window, shows its size and
// a hex view of its first 64 KiB, names the file in the title, and shows errors in the window.

#include "details_pane.h"
#include "hex_view.h"
#include "main_window.h"
#include "test_files.h"

#include <QApplication>
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

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
