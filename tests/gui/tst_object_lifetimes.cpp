// SPDX-License-Identifier: MIT
// Callbacks never outlive their receiver: a benchmark panel or a window destroyed while its
// worker still runs gets no call afterwards. Run under AddressSanitizer too (label "asan"), where
// a call on a freed panel is a reported use-after-free rather than luck.

#include "bench/bench_panel.h"
#include "main_window.h"
#include "test_files.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTest>

using namespace asc;

class TestObjectLifetimes : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private Q_SLOTS:
    // Remembered settings (the benchmark's, the extraction dialog's) start each test afresh.
    void init() { QSettings().clear(); }

    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ArchiveScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_object_lifetimes"));
    }

    void benchPanelDestroyedMidRun()
    {
        const QString file = test::writeFile(dir_, QStringLiteral("data.bin"), test::seededBytes(8 << 20, 3));
        auto *panel = new ui::BenchPanel;
        panel->setTarget(file);
        panel->setStrategies({QStringLiteral("read"), QStringLiteral("pread")});
        panel->setSizes(4096, 1 << 20);
        panel->setRuns(50, 0);
        QSignalSpy progressed(panel, &ui::BenchPanel::progressed);
        QSignalSpy finished(panel, &ui::BenchPanel::runFinished);
        panel->run();
        QVERIFY(progressed.wait(60000)); // the worker is posting progress now
        delete panel; // cancels and waits for the worker
        // Whatever the worker posted before it stopped is delivered now, or dropped with its receiver.
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        QCOMPARE(finished.count(), 0);
    }

    void windowDestroyedWhileListing()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        const QString folder = dir_.filePath(QStringLiteral("many"));
        for (int i = 0; i < 2000; ++i)
            test::writeFile(dir_, QStringLiteral("many/f%1.txt").arg(i), QByteArray::number(i));
        const QString archive = dir_.filePath(QStringLiteral("many.tar.gz"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-czf"), archive, QStringLiteral("-C"), folder, QStringLiteral(".")}).exitCode, 0);
        for (int round = 0; round < 5; ++round) {
            auto *window = new ui::MainWindow;
            QSignalSpy opened(window, &ui::MainWindow::opened);
            window->openSpec(archive);
            QVERIFY(opened.count() > 0 || opened.wait(30000));
            delete window; // listing workers still running: stopped and waited for
            QCoreApplication::sendPostedEvents();
            QCoreApplication::processEvents();
        }
    }
};

QTEST_MAIN(TestObjectLifetimes)
#include "tst_object_lifetimes.moc"
