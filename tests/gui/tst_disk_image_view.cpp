// A disk image in the window: image -> partitions -> filesystem contents (an ISO in a partition,
// expanded in place), the details pane shows the header and backing chain, and the allocation map
// has the image's data, zero and backing parts.

#include "allocation_map.h"
#include "details_pane.h"
#include "entry_filter_model.h"
#include "entry_tree_model.h"
#include "fixtures.h"
#include "main_window.h"
#include "test_files.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using namespace asc;

class TestDiskImageView : public QObject {
    Q_OBJECT

    QTemporaryDir scratch_;

    static QModelIndex findByName(const QAbstractItemModel *model, const QString &name, const QModelIndex &parent = {})
    {
        for (int row = 0; row < model->rowCount(parent); ++row) {
            const QModelIndex index = model->index(row, 0, parent);
            if (index.data().toString() == name)
                return index;
        }
        return {};
    }

    static bool openAndWait(ui::MainWindow &window, const QString &spec)
    {
        QSignalSpy listed(&window, &ui::MainWindow::listingFinished);
        QSignalSpy opened(&window, &ui::MainWindow::opened);
        window.openSpec(spec);
        if ((opened.count() == 0 && !opened.wait(20000)) || !opened.first().at(1).toBool())
            return false;
        return listed.count() > 0 || listed.wait(20000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ArchiveScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_disk_image_view"));
    }

    void imageToPartitionsToFiles()
    {
        // The ISO fixture wrapped in a zlib qcow2 has no partition table: its files are the tree.
        ui::MainWindow window;
        QAbstractItemModelTester tester(window.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.show();
        QVERIFY(openAndWait(window, test::dataPath(QStringLiteral("images/iso.zlib.qcow2"))));
        QVERIFY(findByName(window.proxy(), QStringLiteral("README.TXT")).isValid());
        QVERIFY(window.detailsPane()->text().contains(QStringLiteral("qcow2")));

        // A GPT disk in qcow2: p1 and p2; the map strip shows data and unallocated space.
        QVERIFY(openAndWait(window, test::dataPath(QStringLiteral("images/gpt.v3.qcow2"))));
        QVERIFY(findByName(window.proxy(), QStringLiteral("p1")).isValid());
        QVERIFY(findByName(window.proxy(), QStringLiteral("p2")).isValid());
        QVERIFY(window.detailsPane()->allocationMap()->isVisibleTo(&window));
        QVERIFY(window.detailsPane()->allocationMap()->bytes(ui::AllocationMap::Data) > 0);
        QVERIFY(window.detailsPane()->allocationMap()->bytes(ui::AllocationMap::Unallocated) > 0);
        QVERIFY(findByName(window.proxy(), QStringLiteral("p1")).siblingAtColumn(ui::EntryTreeModel::Type).data().toString().contains(QStringLiteral("FAT32")));
    }

    void backingChainInDetails()
    {
        ui::MainWindow window;
        window.show();
        QSignalSpy opened(&window, &ui::MainWindow::opened);
        window.openSpec(test::dataPath(QStringLiteral("images/chain-top.qcow2")));
        QVERIFY(opened.count() > 0 || opened.wait(20000));
        const QString text = window.detailsPane()->text();
        QVERIFY2(text.contains(QStringLiteral("Backing chain")) && text.contains(QStringLiteral("chain-base.qcow2")), qPrintable(text));
        QVERIFY(window.detailsPane()->allocationMap()->bytes(ui::AllocationMap::Backing) > 0);
    }

    void partitionExpandsIntoItsIso()
    {
        if (!test::haveTool(QStringLiteral("sfdisk")) || !test::haveTool(QStringLiteral("xorriso")))
            QSKIP("sfdisk/xorriso not installed");
        const QString disk = scratch_.filePath(QStringLiteral("disk.raw"));
        auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"),
            QStringLiteral("set -e; cd \"$1\"; mkdir -p t && echo inside > t/inside.txt && xorriso -as mkisofs -quiet -R -o iso.img t && "
                           "truncate -s 8M disk.raw && printf 'label: dos\\n2048,,83\\n' | sfdisk -q disk.raw && "
                           "dd if=iso.img of=disk.raw bs=512 seek=2048 conv=notrunc status=none"), QStringLiteral("sh"), scratch_.path()});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        ui::MainWindow window;
        QAbstractItemModelTester tester(window.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.show();
        QVERIFY(openAndWait(window, disk));
        const QModelIndex p1 = findByName(window.proxy(), QStringLiteral("p1"));
        QVERIFY(p1.isValid());
        window.treeView()->expand(p1);
        QTRY_VERIFY_WITH_TIMEOUT(findByName(window.proxy(), QStringLiteral("inside.txt"), p1).isValid(), 20000);
    }
};

QTEST_MAIN(TestDiskImageView)
#include "tst_disk_image_view.moc"
