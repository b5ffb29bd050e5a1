// SPDX-License-Identifier: MIT
// Typing into the filter on a big tree costs what is on screen, not the whole tree per key: a
// million entries froze the window for 90 s when every keystroke searched below every row and
// opened every folder holding a match. Bounded by counters (rows the proxy evaluated, folders the
// filter opened), never by time: 20 folders of 1,000 files, typed a key at a time.

#include "browse/browse_view.h"
#include "browse/entry_filter_model.h"
#include "browse/entry_tree_model.h"
#include "main_window.h"
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
};

QTEST_MAIN(TestFilterBigTree)
#include "tst_filter_big_tree.moc"
