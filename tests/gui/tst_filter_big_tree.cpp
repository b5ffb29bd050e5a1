// SPDX-License-Identifier: MIT
// Typing into the filter on a big tree costs what is on screen, not the whole tree per key: a
// million entries froze the window for 90 s when every keystroke searched below every row and
// opened every folder holding a match. Bounded by counters (rows the proxy evaluated, folders the
// filter opened), never by time: 20 folders of 1,000 files, typed a key at a time.

#include "browse/browse_view.h"
#include "browse/entry_filter_model.h"
#include "browse/entry_tree_model.h"
#include "main_window.h"
#include "open/tree_loader.h"
#include "model_search.h"
#include "test_files.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using namespace asc;

class TestFilterBigTree : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString archive_;
    static constexpr int kFolders = 20;
    static constexpr int kFiles = 1000;

private Q_SLOTS:
    void initTestCase()
    {
        archive_ = dir_.filePath(QStringLiteral("many.tar"));
        auto made = test::run(QStringLiteral("python3"),
                              {QStringLiteral("-c"), QStringLiteral("import tarfile, sys\n"
                                                                    "with tarfile.open(sys.argv[1], 'w') as t:\n"
                                                                    "    for d in range(%1):\n"
                                                                    "        for f in range(%2):\n"
                                                                    "            i = tarfile.TarInfo('tree/dir_%03d/file_%05d.txt' % (d, f)); t.addfile(i)\n")
                                                         .arg(kFolders)
                                                         .arg(kFiles),
                               archive_});
        QVERIFY2(made.exitCode == 0, made.err.constData());
    }

    void typingCostsWhatIsShown()
    {
        ui::MainWindow window;
        window.show();
        QSignalSpy listed(&window, &ui::MainWindow::listingFinished);
        window.openSpec(archive_);
        QVERIFY(listed.count() > 0 || listed.wait(30000));
        const int entries = window.model()->tree().size() - 1;
        QCOMPARE(entries, kFolders * kFiles + kFolders + 1);
        ui::EntryFilterModel *proxy = window.proxy();
        ui::BrowseView *browse = window.browseView();

        // "f" matches every file: the way to the first thousand is opened (one folder), not 20.
        uint64_t before = proxy->rowsEvaluated();
        QTest::keyClick(window.filterEdit(), Qt::Key_F);
        QCoreApplication::processEvents(); // the expansion runs from the event loop
        QCOMPARE(proxy->matchCount(), uint64_t(kFolders * kFiles));
        QVERIFY2(browse->expandedByFilter() <= 2, qPrintable(QString::number(browse->expandedByFilter())));
        // Each further key refilters the folders on screen (the top ones and those open before and
        // after it), never every row of the tree.
        auto openFolders = [&] {
            int open = 0;
            const QModelIndex top = test::findByName(proxy, QStringLiteral("tree"));
            for (int row = 0; top.isValid() && row < proxy->rowCount(top); ++row)
                open += window.treeView()->isExpanded(proxy->index(row, 0, top));
            return open;
        };
        for (const char key : QByteArray("ile_0099")) {
            const int openBefore = openFolders();
            before = proxy->rowsEvaluated();
            QTest::keyClicks(window.filterEdit(), QString(QLatin1Char(key)));
            QCoreApplication::processEvents();
            const uint64_t cost = proxy->rowsEvaluated() - before;
            const uint64_t shown = uint64_t(openBefore + openFolders() + 1) * kFiles + kFolders + 2;
            QVERIFY2(cost <= shown, qPrintable(QStringLiteral("'%1' evaluated %2 rows of %3 (%4 on screen)").arg(window.filterEdit()->text()).arg(cost).arg(entries).arg(shown)));
        }
        QVERIFY2(browse->expandedByFilter() < uint64_t(2 * kFolders), qPrintable(QString::number(browse->expandedByFilter())));
        // "file_0099" matches file_00990 … file_00999 in every folder: all shown, each folder open.
        QCOMPARE(proxy->matchCount(), uint64_t(kFolders * 10));
        const QModelIndex deep = test::findByName(proxy, QStringLiteral("file_00995.txt"));
        QVERIFY(deep.isValid());
        QVERIFY(window.treeView()->isExpanded(deep.parent()));

        // Clearing shows everything again.
        window.filterEdit()->clear();
        QCoreApplication::processEvents();
        QCOMPARE(proxy->matchCount(), uint64_t(0));
        QVERIFY(test::findByName(proxy, QStringLiteral("file_00001.txt")).isValid());
    }

    // 120,000 entries, more than one pass of names: the listing goes into the tree a bounded
    // number of entries per turn of the event loop, the filter's text is matched a pass at a
    // time, and keys typed faster than a pass abandon the older texts (only the latest text is
    // matched to the end and applied).
    void bigTreeInPasses()
    {
        const QString big = dir_.filePath(QStringLiteral("big.tar"));
        auto made = test::run(QStringLiteral("python3"),
                              {QStringLiteral("-c"), QStringLiteral("import tarfile, sys\n"
                                                                    "with tarfile.open(sys.argv[1], 'w') as t:\n"
                                                                    "    for d in range(12):\n"
                                                                    "        for f in range(10000):\n"
                                                                    "            i = tarfile.TarInfo('tree/dir_%03d/file_%05d.txt' % (d, f)); t.addfile(i)\n"),
                               big});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        ui::MainWindow window;
        window.show();
        QSignalSpy listed(&window, &ui::MainWindow::listingFinished);
        window.openSpec(big);
        QVERIFY(listed.count() > 0 || listed.wait(60000));
        const int32_t nodes = window.model()->tree().size();
        QVERIFY(nodes > ui::EntryFilterModel::kMarksPerPass);
        QVERIFY2(window.browseView()->loader()->largestAppend() <= TreeLoader::kAppendPerTurn,
                 qPrintable(QString::number(window.browseView()->loader()->largestAppend())));
        ui::EntryFilterModel *proxy = window.proxy();
        const uint64_t matchedBefore = proxy->namesMatched();
        QSignalSpy applied(proxy, &ui::EntryFilterModel::filterApplied);
        // Four keys at once (faster than a pass): three texts are abandoned.
        window.filterEdit()->setText(QStringLiteral("f"));
        window.filterEdit()->setText(QStringLiteral("fi"));
        window.filterEdit()->setText(QStringLiteral("fil"));
        window.filterEdit()->setText(QStringLiteral("file_0999"));
        QVERIFY(proxy->applying());
        QVERIFY(applied.wait(30000));
        QCOMPARE(applied.count(), 1);
        QVERIFY(proxy->largestMarkPass() <= ui::EntryFilterModel::kMarksPerPass);
        const uint64_t matched = proxy->namesMatched() - matchedBefore;
        QVERIFY2(matched <= uint64_t(nodes), qPrintable(QStringLiteral("%1 names matched for a tree of %2").arg(matched).arg(nodes)));
        QCOMPARE(proxy->matchCount(), uint64_t(12 * 10));
        QTRY_VERIFY(!window.browseView()->filterSettling());
        const QModelIndex found = test::findByName(proxy, QStringLiteral("file_09995.txt"));
        QVERIFY(found.isValid());
        QVERIFY(window.treeView()->isExpanded(found.parent()));
    }
};

QTEST_MAIN(TestFilterBigTree)
#include "tst_filter_big_tree.moc"
