// SPDX-License-Identifier: MIT
// The archive tree in the window: models pass QAbstractItemModelTester while being filled from
// the worker; filtering keeps parents of matches; sorting; a nested archive expands in place;
// Extract Selected and drag-out write the right bytes.

#include "browse/details_pane.h"
#include "browse/entry_filter_model.h"
#include "browse/entry_tree_model.h"
#include "browse/drag_extraction_data.h"
#include "main_window.h"
#include "model_search.h"
#include "test_files.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <QTreeView>

using namespace asc;
using test::findByName;

class TestArchiveView : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString archive_;
    QByteArray innerContent_ = "inside the nested zip\n";

    static int countRows(const QAbstractItemModel *model, const QModelIndex &parent = {})
    {
        int n = 0;
        for (int row = 0; row < model->rowCount(parent); ++row) {
            ++n;
            // The model tester fetches nested archives itself: count the outer archive only.
            if (model->index(row, 0, parent).data().toString() != QLatin1String("inner.zip"))
                n += countRows(model, model->index(row, 0, parent));
        }
        return n;
    }

    bool openAndWait(ui::MainWindow &window, const QString &spec)
    {
        QSignalSpy listed(&window, &ui::MainWindow::listingFinished);
        QSignalSpy opened(&window, &ui::MainWindow::opened);
        window.openSpec(spec);
        QElapsedTimer timer;
        timer.start();
        // The continuation may already have run inside openSpec (a fast open): count first.
        if ((opened.count() == 0 && !opened.wait(20000)) || !opened.first().at(1).toBool()) {
            qWarning("open failed after %lld ms (%d signals): %s", timer.elapsed(), int(opened.count()), qPrintable(window.bannerText()));
            return false;
        }
        if (listed.count() == 0 && !listed.wait(60000)) {
            qWarning("listing did not finish");
            return false;
        }
        return true;
    }

private Q_SLOTS:
    // Remembered settings (the benchmark's, the extraction dialog's) start each test afresh.
    void init() { QSettings().clear(); }

    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ArchiveScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_archive_view"));
        archive_ = dir_.filePath(QStringLiteral("big.tar"));
        const QString script = QStringLiteral(R"PY(
import io, sys, tarfile, zipfile
inner = io.BytesIO()
with zipfile.ZipFile(inner, "w") as z:
    z.writestr("nested/inner.txt", sys.argv[2])
with tarfile.open(sys.argv[1], "w") as t:
    def add(name, data):
        i = tarfile.TarInfo(name); i.size = len(data); i.mtime = 1700000000; t.addfile(i, io.BytesIO(data))
    for d in range(30):
        for f in range(100):
            add("top/d%02d/f%04d.txt" % (d, f), b"x" * (d * 100 + f))
    add("top/big.bin", b"B" * 300000)
    add("top/inner.zip", inner.getvalue())
    add("top/file2.txt", b"2"); add("top/file10.txt", b"10")
)PY");
        auto r = test::run(QStringLiteral("python3"), {QStringLiteral("-c"), script, archive_, QString::fromUtf8(innerContent_)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    void modelsPassTheTesterWhileFilling()
    {
        ui::MainWindow window;
        // Testers attached before the model is filled, so every incremental insert is checked.
        QAbstractItemModelTester sourceTester(window.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(window.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.show();
        QVERIFY(openAndWait(window, archive_));
        // 30 dirs x 100 files + big.bin + inner.zip + 2 files + implied "top" and 30 implied dirs.
        QCOMPARE(countRows(window.model()), 1 + 30 + 3000 + 4);
        QCOMPARE(countRows(window.proxy()), 1 + 30 + 3000 + 4);
        QVERIFY(window.bannerText().isEmpty());
    }

    // A folder's item count is told to the view as its rows arrive: the Size cell of every folder
    // that received rows changes, and after the listing it counts them all.
    void folderCountsFollowTheirRows()
    {
        ui::MainWindow window;
        QSet<int32_t> told;
        connect(window.model(), &QAbstractItemModel::dataChanged, this, [&](const QModelIndex &from, const QModelIndex &to) {
            if (from.column() <= ui::EntryTreeModel::Size && to.column() >= ui::EntryTreeModel::Size)
                told.insert(window.model()->nodeOf(from));
        });
        window.show();
        QVERIFY(openAndWait(window, archive_));
        const QModelIndex top = test::findByName(window.proxy(), QStringLiteral("top"));
        QVERIFY(top.isValid());
        const QModelIndex d00 = test::findByName(window.proxy(), QStringLiteral("d00"), top);
        QVERIFY(d00.isValid());
        QVERIFY(told.contains(window.model()->nodeOf(window.proxy()->mapToSource(d00))));
        QCOMPARE(d00.siblingAtColumn(ui::EntryTreeModel::Size).data().toString(), QStringLiteral("100 items"));
    }

    void filterKeepsParents()
    {
        ui::MainWindow window;
        QAbstractItemModelTester proxyTester(window.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(openAndWait(window, archive_));
        window.filterEdit()->setText(QStringLiteral("F0042")); // case-insensitive substring
        // top -> 30 dirs -> one f0042.txt each
        QCOMPARE(countRows(window.proxy()), 1 + 30 + 30);
        window.filterEdit()->setText(QStringLiteral("*.bin"));
        QCOMPARE(countRows(window.proxy()), 2);
        QVERIFY(findByName(window.proxy(), QStringLiteral("big.bin")).isValid());
        window.filterEdit()->clear();
        QCOMPARE(countRows(window.proxy()), 1 + 30 + 3000 + 4);
    }

    void sorting()
    {
        ui::MainWindow window;
        QVERIFY(openAndWait(window, archive_));
        const QModelIndex top = window.proxy()->index(0, 0);
        window.treeView()->sortByColumn(ui::EntryTreeModel::Name, Qt::AscendingOrder);
        QStringList names;
        for (int row = 0; row < window.proxy()->rowCount(top); ++row)
            names << window.proxy()->index(row, 0, top).data().toString();
        // Folders first, then files in natural order (file2 before file10).
        QCOMPARE(names.first(), QStringLiteral("d00"));
        QVERIFY(names.indexOf(QStringLiteral("file2.txt")) < names.indexOf(QStringLiteral("file10.txt")));
        QVERIFY(names.indexOf(QStringLiteral("d29")) < names.indexOf(QStringLiteral("big.bin")));
        window.treeView()->sortByColumn(ui::EntryTreeModel::Size, Qt::DescendingOrder);
        int firstFile = 0;
        while (window.proxy()->index(firstFile, 0, top).data(ui::EntryTreeModel::IsDirRole).toBool())
            ++firstFile;
        QCOMPARE(window.proxy()->index(firstFile, 0, top).data().toString(), QStringLiteral("big.bin"));
    }

    void nestedArchiveExpandsInPlace()
    {
        ui::MainWindow window;
        QAbstractItemModelTester sourceTester(window.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.show();
        QVERIFY(openAndWait(window, archive_));
        const QModelIndex zip = findByName(window.proxy(), QStringLiteral("inner.zip"));
        QVERIFY(zip.isValid());
        QVERIFY2(window.proxy()->hasChildren(zip), qPrintable(window.bannerText()));
        window.treeView()->expand(zip); // what a double-click does
        QTRY_VERIFY_WITH_TIMEOUT(findByName(window.proxy(), QStringLiteral("inner.txt"), zip).isValid(), 20000);
        const QModelIndex inner = findByName(window.proxy(), QStringLiteral("inner.txt"), zip);
        window.treeView()->selectionModel()->setCurrentIndex(inner, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QVERIFY(window.detailsPane()->text().contains(archive_ + QStringLiteral("!/top/inner.zip!/nested/inner.txt")));
    }

    void extractSelectedAndDragOut()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(openAndWait(window, archive_));
        const QModelIndex big = findByName(window.proxy(), QStringLiteral("big.bin"));
        QVERIFY(big.isValid());
        window.treeView()->selectionModel()->select(big, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        const QString target = dir_.filePath(QStringLiteral("extracted"));
        QSignalSpy done(&window, &ui::MainWindow::extractionFinished);
        window.extractSelectedTo(target);
        QVERIFY(done.count() > 0 || done.wait(20000));
        QCOMPARE(test::sha256File(target + QStringLiteral("/top/big.bin")), test::sha256(QByteArray(300000, 'B')));
        QVERIFY(!QFile::exists(target + QStringLiteral("/top/d00")));

        std::unique_ptr<QMimeData> mime(window.proxy()->mimeData({big}));
        QVERIFY(mime);
        QCOMPARE(mime->urls().size(), 1);
        QCOMPARE(test::sha256File(mime->urls().first().toLocalFile()), test::sha256(QByteArray(300000, 'B')));
    }

    void dragOutOfAHugeEntryKeepsTheWindowAnswering()
    {
        // 300 MiB in a tar.gz (6 MiB: mostly zeros, yet under the bomb ratio that extraction
        // refuses): the drop target needs the file when it asks for the drag's data,
        // so it is extracted then — on a worker, while the event loop keeps answering (a timer
        // keeps ticking; the longest gap between ticks is a small part of the extraction's time).
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        const QString folder = dir_.filePath(QStringLiteral("huge"));
        QDir().mkpath(folder);
        const auto made = test::run(QStringLiteral("python3"), {QStringLiteral("-c"), QStringLiteral("import random, sys\n"
                                                                                                     "r = random.Random(5)\n"
                                                                                                     "with open(sys.argv[1], 'wb') as f:\n"
                                                                                                     "    for _ in range(300 * 256): f.write(r.randbytes(64) + bytes(4032))\n"),
                                                                folder + QStringLiteral("/zeros.bin")});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const QString archive = dir_.filePath(QStringLiteral("huge.tar.gz"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-czf"), archive, QStringLiteral("-C"), folder, QStringLiteral("zeros.bin")}).exitCode, 0);
        QFile::remove(folder + QStringLiteral("/zeros.bin"));
        ui::MainWindow window;
        window.show();
        QVERIFY(openAndWait(window, archive));
        const QModelIndex zeros = findByName(window.proxy(), QStringLiteral("zeros.bin"));
        QVERIFY(zeros.isValid());

        QElapsedTimer clock;
        clock.start();
        qint64 last = 0, longest = 0;
        int ticks = 0;
        QTimer ticker;
        ticker.setInterval(5);
        connect(&ticker, &QTimer::timeout, this, [&] {
            longest = std::max(longest, clock.elapsed() - last);
            last = clock.elapsed();
            ++ticks;
        });
        ticker.start();
        last = clock.elapsed();
        std::unique_ptr<QMimeData> mime(window.proxy()->mimeData({zeros})); // what starting a drag asks for
        QVERIFY(mime);
        // Starting the drag extracts nothing: a drag dropped nowhere costs nothing.
        auto *lazy = qobject_cast<ui::DragExtractionData *>(mime.get());
        QVERIFY(lazy && !lazy->extracted());
        QVERIFY(mime->hasUrls());
        QVERIFY(!lazy->extracted());
        const qint64 started = clock.elapsed();
        const QList<QUrl> urls = mime->urls(); // what the drop target asks for
        const qint64 took = clock.elapsed() - started;
        ticker.stop();
        QVERIFY(lazy->extracted());
        QCOMPARE(urls.size(), 1);
        QCOMPARE(QFileInfo(urls.first().toLocalFile()).size(), 300LL << 20);
        QCOMPARE(mime->urls(), urls); // extracted once
        QVERIFY2(ticks >= 5 && longest * 4 < took, qPrintable(QStringLiteral("%1 ticks, longest stall %2 ms of %3 ms").arg(ticks).arg(longest).arg(took)));
    }

    void corruptArchiveShowsAnError()
    {
        QFile f(archive_);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString cut = test::writeFile(dir_, QStringLiteral("cut.tar"), f.read(200000) + QByteArray(1000, '\x7f'));
        ui::MainWindow window;
        window.show();
        QSignalSpy listed(&window, &ui::MainWindow::listingFinished);
        window.openSpec(cut);
        QVERIFY(listed.count() > 0 || listed.wait(20000));
        QVERIFY2(window.bannerText().contains(cut), qPrintable(window.bannerText()));
        QVERIFY(countRows(window.model()) > 10); // what could be read is shown
    }
};

QTEST_MAIN(TestArchiveView)
#include "tst_archive_view.moc"
