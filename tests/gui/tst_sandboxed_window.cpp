// SPDX-License-Identifier: MIT
// Each file a window opens is parsed in a worker process of its own: killing it mid-browse is an
// error in the banner with "Try Again" (which opens the file in a fresh worker), another window
// goes on undisturbed, a worker that answers nothing brings up "Still reading… Stop?", and
// --no-sandbox parses in this process. The Benchmark workspace measures in a worker of its own:
// killing it mid-run is an error naming the file, and the next run starts a fresh one.

#include "bench/bench_panel.h"
#include "main_window.h"
#include "open/tree_loader.h"
#include "open_job.h"
#include "browse/problem_banner.h"
#include "stall_prompt.h"
#include "test_files.h"

#include <QDir>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <csignal>
#include <unistd.h>

using namespace asc;

class TestSandboxedWindow : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString zip_; // outer.zip holding inner.tar.gz (tree/a.txt, tree/b.txt) and readme.txt
    QString tar_;

    static bool openAndWait(ui::MainWindow &window, const QString &spec)
    {
        QSignalSpy opened(&window, &ui::MainWindow::opened);
        window.openSpec(spec);
        if (!opened.wait(30000))
            return false;
        for (int i = 0; i < 300 && window.isBusy(); ++i)
            QTest::qWait(100);
        return !window.isBusy() && opened.last().at(1).toBool();
    }

    // From now on workers are a stand-in that never answers nor reads (a shell sleeping); returns
    // the real worker's path to put back with useWorker().
    QByteArray useMuteWorker()
    {
        const QString mute = test::writeFile(dir_, QStringLiteral("mute-worker"), "#!/bin/sh\nexec sleep 600\n");
        QFile::setPermissions(mute, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QByteArray real = qgetenv("ARCHIVESCOPE_WORKER");
        useWorker(mute.toLocal8Bit());
        return real;
    }
    static void useWorker(const QByteArray &program) { qputenv("ARCHIVESCOPE_WORKER", program); }

    static int32_t nodeNamed(const ui::MainWindow &window, const QByteArray &name)
    {
        const EntryTree &tree = window.browseView()->loader()->tree();
        for (int32_t node = 1; node < tree.size(); ++node)
            if (tree.name(node) == QByteArrayView(name))
                return node;
        return -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        QDir().mkpath(dir_.filePath(QStringLiteral("tree")));
        test::writeFile(dir_, QStringLiteral("tree/a.txt"), "alpha\n");
        test::writeFile(dir_, QStringLiteral("tree/b.txt"), "bravo\n");
        tar_ = dir_.filePath(QStringLiteral("inner.tar.gz"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-czf"), tar_, QStringLiteral("-C"), dir_.path(), QStringLiteral("tree")}).exitCode, 0);
        // Two entries, so the window does not open the nested archive by itself (it shows what a
        // lone top folder holds).
        test::writeFile(dir_, QStringLiteral("readme.txt"), "read me\n");
        zip_ = dir_.filePath(QStringLiteral("outer.zip"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("--format=zip"), QStringLiteral("-cf"), zip_, QStringLiteral("-C"), dir_.path(), QStringLiteral("inner.tar.gz"), QStringLiteral("readme.txt")}).exitCode, 0);
    }

    void init() { ui::sandbox() = ui::SandboxChoice{}; }

    void parsesInAWorkerProcess()
    {
        ui::MainWindow window;
        QVERIFY(openAndWait(window, tar_));
        QVERIFY(window.worker());
        QVERIFY(window.worker()->alive());
        QVERIFY(window.worker()->pid() != ::getpid());
        QVERIFY(nodeNamed(window, "b.txt") > 0);
        // The hex view's bytes came from the worker.
        QCOMPARE(QFileInfo(tar_).size(), qint64(window.currentSize()));
    }

    void killedWorkerIsAnErrorAndTryAgainOpensAFreshOne()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(openAndWait(window, zip_));
        const int32_t inner = nodeNamed(window, "inner.tar.gz");
        QVERIFY(inner > 0);
        const pid_t first = window.worker()->pid();
        ::kill(first, SIGKILL);
        window.browseView()->loader()->expand(inner);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy() && window.browseView()->loader()->expansionStarted(inner), 20000);
        QVERIFY2(window.bannerText().contains(QStringLiteral("the worker reading it crashed (signal 9: Killed)")), qPrintable(window.bannerText()));
        QVERIFY2(window.bannerText().contains(QStringLiteral("outer.zip")), qPrintable(window.bannerText()));
        QVERIFY(window.bannerText().contains(QStringLiteral("#retry")));
        QVERIFY(nodeNamed(window, "inner.tar.gz") > 0); // what was shown stays

        QSignalSpy opened(&window, &ui::MainWindow::opened);
        Q_EMIT window.browseView()->banner()->retryRequested(); // the "Try Again" link
        QVERIFY(opened.wait(30000));
        QVERIFY(opened.last().at(1).toBool());
        QVERIFY(window.worker()->alive());
        QVERIFY(window.worker()->pid() != first);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 30000);
        const int32_t again = nodeNamed(window, "inner.tar.gz");
        window.browseView()->loader()->expand(again);
        QTRY_VERIFY_WITH_TIMEOUT(nodeNamed(window, "a.txt") > 0, 20000);
        // And the window opens another file.
        QVERIFY(openAndWait(window, tar_));
        QCOMPARE(window.currentSpec(), tar_);
    }

    void otherWindowsGoOn()
    {
        ui::MainWindow one, two;
        QVERIFY(openAndWait(one, zip_));
        QVERIFY(openAndWait(two, zip_));
        QVERIFY(one.worker()->pid() != two.worker()->pid());
        ::kill(one.worker()->pid(), SIGKILL);
        two.browseView()->loader()->expand(nodeNamed(two, "inner.tar.gz"));
        QTRY_VERIFY_WITH_TIMEOUT(nodeNamed(two, "a.txt") > 0, 20000);
        QVERIFY(two.bannerText().isEmpty());
    }

    void quietWorkerBringsUpThePrompt()
    {
        // A stand-in worker that never answers (nor reads): the prompt appears, Stop ends it, the
        // open fails with "reading stopped" and Try Again; with the real worker back it opens.
        const QByteArray real = useMuteWorker();
        ui::MainWindow window;
        window.show();
        window.stallPrompt()->setPromptSeconds(1);
        QSignalSpy opened(&window, &ui::MainWindow::opened);
        window.openSpec(tar_);
        QTRY_VERIFY_WITH_TIMEOUT(window.stallPrompt()->isVisible(), 20000);
        auto *text = window.stallPrompt()->findChild<QLabel *>();
        QVERIFY(text && text->text().contains(QStringLiteral("inner.tar.gz")));
        useWorker(real);
        // Keep Waiting hides it until as long again has passed.
        window.stallPrompt()->findChild<QPushButton *>(QStringLiteral("stallWait"))->click();
        QVERIFY(!window.stallPrompt()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(window.stallPrompt()->isVisible(), 20000);
        window.stallPrompt()->findChild<QPushButton *>(QStringLiteral("stallStop"))->click();
        QVERIFY(opened.wait(20000));
        QVERIFY(!opened.last().at(1).toBool());
        QVERIFY2(window.bannerText().contains(QStringLiteral("reading stopped")), qPrintable(window.bannerText()));
        QVERIFY(window.bannerText().contains(QStringLiteral("#retry")));
        QVERIFY(!window.stallPrompt()->isVisible());
        Q_EMIT window.browseView()->banner()->retryRequested();
        QVERIFY(opened.wait(30000));
        QVERIFY(opened.last().at(1).toBool());
    }

    void stopWhileOpeningEndsTheWorker()
    {
        const QByteArray real = useMuteWorker();
        ui::MainWindow window;
        QSignalSpy opened(&window, &ui::MainWindow::opened);
        window.openSpec(tar_);
        useWorker(real);
        auto *stop = window.findChild<QAction *>(QStringLiteral("stopLoading"));
        QVERIFY(stop && stop->isEnabled()); // Stop works while a file opens, not only while it lists
        stop->trigger();
        QVERIFY(opened.wait(20000));
        QVERIFY(!opened.last().at(1).toBool());
        QVERIFY2(window.bannerText().contains(QStringLiteral("reading stopped")), qPrintable(window.bannerText()));
    }

    // A worker of ours started for a bench (with rings of its own), or 0.
    static pid_t benchWorker()
    {
        for (const QString &task : QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            QFile children(QStringLiteral("/proc/self/task/%1/children").arg(task));
            if (!children.open(QIODevice::ReadOnly))
                continue;
            for (const QByteArray &pid : children.readAll().trimmed().split(' ')) {
                QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(QString::fromLatin1(pid)));
                if (!pid.isEmpty() && cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().contains("--rings"))
                    return pid_t(pid.toInt());
            }
        }
        return 0;
    }

    void benchRunsInAWorkerOfItsOwn()
    {
        const QString big = test::writeFile(dir_, QStringLiteral("bench.bin"), test::seededBytes(64 << 20, 9));
        ui::BenchPanel panel;
        panel.show();
        panel.setTarget(big);
        panel.setStrategies({QStringLiteral("read"), QStringLiteral("uring-qd4")});
        panel.setSizes(4096, 16 << 20);
        panel.setRuns(20, 1);
        QSignalSpy done(&panel, &ui::BenchPanel::runFinished);
        QSignalSpy progressed(&panel, &ui::BenchPanel::progressed);
        panel.run();
        QVERIFY(progressed.wait(60000));
        const pid_t worker = benchWorker();
        QVERIFY(worker > 0 && worker != ::getpid());
        QCOMPARE(::kill(worker, SIGKILL), 0);
        QVERIFY(done.count() > 0 || done.wait(60000));
        QCOMPARE(done.first().first().toBool(), false);
        QVERIFY2(panel.statusText().contains(big) && panel.statusText().contains(QStringLiteral("signal 9")), qPrintable(panel.statusText()));
        QVERIFY(!panel.isRunning());
        // The next run has a fresh worker and completes.
        panel.setSizes(65536, 65536);
        panel.setRuns(1, 0);
        QSignalSpy again(&panel, &ui::BenchPanel::runFinished);
        panel.run();
        QVERIFY(again.wait(30000));
        QCOMPARE(again.first().first().toBool(), true);
        QCOMPARE(benchWorker(), pid_t(0)); // ended with its run
    }

    void noSandboxParsesHere()
    {
        ui::sandbox().enabled = false;
        ui::MainWindow window;
        QVERIFY(openAndWait(window, zip_));
        QVERIFY(!window.worker());
        QVERIFY(nodeNamed(window, "inner.tar.gz") > 0);
    }
};

QTEST_MAIN(TestSandboxedWindow)
#include "tst_sandboxed_window.moc"
