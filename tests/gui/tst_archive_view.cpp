// SPDX-License-Identifier: MIT
// The archive tree in the window: models pass QAbstractItemModelTester while being filled from
// the worker; filtering keeps parents of matches; sorting; a nested archive expands in place;
// Extract Selected and drag-out write the right bytes.

#include "details_pane.h"
#include "entry_filter_model.h"
#include "entry_tree_model.h"
#include "main_window.h"
#include "model_search.h"
#include "test_files.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QMimeData>
#include <QSignalSpy>
#include <QTest>
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
