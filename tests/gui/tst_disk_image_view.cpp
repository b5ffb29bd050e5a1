// SPDX-License-Identifier: MIT
// A disk image in the window: image -> partitions -> filesystem contents (an ISO in a partition,
// expanded in place), the details pane shows the header and backing chain, and the allocation map
// has the image's data, zero and backing parts.

#include "browse/allocation_map.h"
#include "browse/details_pane.h"
#include "browse/entry_filter_model.h"
#include "browse/entry_tree_model.h"
#include "fixtures.h"
#include "main_window.h"
#include "model_search.h"
#include "test_files.h"
#include "window_waits.h"
#include "formats/format.h"
#include "open/spec.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <QTreeView>

using namespace asc;

class TestDiskImageView : public QObject {
    Q_OBJECT

    QTemporaryDir scratch_;

    static QModelIndex findByName(const QAbstractItemModel *model, const QString &name, const QModelIndex &parent = {})
    {
        return test::findByName(model, name, parent, false); // direct children only
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("ArchiveScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_disk_image_view"));
    }

    // Partitions holding what ArchiveScope does not open (LVM, LUKS, swap) are named and show no
    // expand arrow (it led to an error); the disk's other partitions still open.
    void partitionsWeDoNotOpenHaveNoArrow()
    {
        QTemporaryDir dir;
        const QString disk = dir.filePath(QStringLiteral("lvm.raw"));
        auto made = test::run(QStringLiteral("python3"), {QStringLiteral("-c"), QStringLiteral(R"PY(
import struct, sys
disk = bytearray(4 << 20)
def part(slot, kind, start, count):
    e = 446 + 16 * slot
    disk[e + 4] = kind
    disk[e + 8:e + 16] = struct.pack('<II', start, count)
part(0, 0x8e, 2048, 2048)   # LVM
part(1, 0x83, 4096, 2048)   # LUKS
part(2, 0x82, 6144, 2048)   # swap
disk[510:512] = b'\x55\xaa'
disk[2048 * 512 + 512:2048 * 512 + 520] = b'LABELONE'
disk[4096 * 512:4096 * 512 + 8] = b'LUKS\xba\xbe\x00\x02'
disk[6144 * 512 + 4096 - 10:6144 * 512 + 4096] = b'SWAPSPACE2'
open(sys.argv[1], 'wb').write(disk)
)PY"),
                                                          disk});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        ui::MainWindow window;
        QAbstractItemModelTester tester(window.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.show();
        QVERIFY(test::openAndWait(window, disk));
        // p2 is only the magic of a LUKS2 header (a real one expands: tst_luks_window).
        for (const char *name : {"p1", "p2", "p3"}) {
            const QModelIndex p = findByName(window.proxy(), QLatin1String(name));
            QVERIFY2(p.isValid(), name);
            QVERIFY2(!window.proxy()->hasChildren(p), name);
        }
        QVERIFY(findByName(window.proxy(), QStringLiteral("p1")).siblingAtColumn(ui::EntryTreeModel::Type).data().toString().contains(QStringLiteral("LVM")));
        QVERIFY(findByName(window.proxy(), QStringLiteral("p2")).siblingAtColumn(ui::EntryTreeModel::Type).data().toString().contains(QStringLiteral("LUKS")));
    }

    void imageToPartitionsToFiles()
    {
        // The ISO fixture wrapped in a zlib qcow2 has no partition table: its files are the tree.
        ui::MainWindow window;
        QAbstractItemModelTester tester(window.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.show();
        QVERIFY(test::openAndWait(window, test::dataPath(QStringLiteral("images/iso.zlib.qcow2"))));
        QVERIFY(findByName(window.proxy(), QStringLiteral("README.TXT")).isValid());
        QVERIFY(window.detailsPane()->text().contains(QStringLiteral("qcow2")));

        // A GPT disk in qcow2: p1 and p2; the map strip shows data and unallocated space.
        QVERIFY(test::openAndWait(window, test::dataPath(QStringLiteral("images/gpt.v3.qcow2"))));
        QVERIFY(findByName(window.proxy(), QStringLiteral("p1")).isValid());
        QVERIFY(findByName(window.proxy(), QStringLiteral("p2")).isValid());
        QVERIFY(window.detailsPane()->allocationMap()->isVisibleTo(&window));
        QVERIFY(window.detailsPane()->allocationMap()->bytes(ui::AllocationMap::Data) > 0);
        QVERIFY(window.detailsPane()->allocationMap()->bytes(ui::AllocationMap::Unallocated) > 0);
        // Its tooltip names the disk offsets under the pointer and the extents there, with
        // their offsets in the image file.
        const ui::AllocationMap *map = window.detailsPane()->allocationMap();
        const QString head = map->describeColumn(0);
        QVERIFY2(head.contains(QStringLiteral("Disk bytes 0x0")) && head.contains(QStringLiteral("from 0x")), qPrintable(head));
        bool fileOffsetShown = false;
        for (int x = 0; x < map->width() - 1 && !fileOffsetShown; ++x)
            fileOffsetShown = map->describeColumn(x).contains(QStringLiteral("at file offset 0x"));
        QVERIFY(fileOffsetShown);
        QVERIFY(map->describeColumn(map->width() + 5).isEmpty());
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
        ASC_REQUIRE_TOOL(QStringLiteral("sfdisk"));
        ASC_REQUIRE_TOOL(QStringLiteral("xorriso"));
        const QString disk = scratch_.filePath(QStringLiteral("disk.raw"));
        auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"),
                                                          QStringLiteral("set -e; cd \"$1\"; mkdir -p t && echo inside > t/inside.txt && xorriso -as mkisofs -quiet -R -o iso.img t && "
                                                                         "truncate -s 8M disk.raw && printf 'label: dos\\n2048,,83\\n' | sfdisk -q disk.raw && "
                                                                         "dd if=iso.img of=disk.raw bs=512 seek=2048 conv=notrunc status=none"),
                                                          QStringLiteral("sh"), scratch_.path()});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        ui::MainWindow window;
        QAbstractItemModelTester tester(window.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        window.show();
        QVERIFY(test::openAndWait(window, disk));
        const QModelIndex p1 = findByName(window.proxy(), QStringLiteral("p1"));
        QVERIFY(p1.isValid());
        window.treeView()->expand(p1);
        QTRY_VERIFY_WITH_TIMEOUT(findByName(window.proxy(), QStringLiteral("inside.txt"), p1).isValid(), 20000);
    }

    void filesystemFoldersAreReadWhenExpanded()
    {
        // ext4 in p2 of a GPT disk in qcow2: the partition opens on its top folder only; a
        // folder's children are read when it is expanded, not before. (The model tester fetches
        // every index it sees, so it joins at the end.)
        ui::MainWindow window;
        window.show();
        QVERIFY(test::openAndWait(window, test::dataPath(QStringLiteral("images/gpt.v3.qcow2"))));
        const QModelIndex p2 = findByName(window.proxy(), QStringLiteral("p2"));
        QVERIFY(p2.isValid());
        QSignalSpy listed(&window, &ui::MainWindow::listingFinished);
        window.treeView()->expand(p2);
        QTRY_VERIFY_WITH_TIMEOUT(findByName(window.proxy(), QStringLiteral("many"), p2).isValid(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 20000);
        QVERIFY(findByName(window.proxy(), QStringLiteral("README.TXT"), p2).isValid());
        const int32_t before = window.model()->tree().size();
        const QModelIndex many = findByName(window.proxy(), QStringLiteral("many"), p2);
        QCOMPARE(window.proxy()->rowCount(many), 0);
        QVERIFY(window.proxy()->hasChildren(many)); // the expander shows before anything is read
        const QModelIndex deep = findByName(window.proxy(), QStringLiteral("deep"), p2);
        QVERIFY(deep.isValid());
        QCOMPARE(window.proxy()->rowCount(deep), 0);

        window.treeView()->expand(many);
        QTRY_COMPARE_WITH_TIMEOUT(window.proxy()->rowCount(many), 300, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 20000);
        QCOMPARE(window.model()->tree().size(), before + 300); // that folder and nothing else
        QCOMPARE(window.proxy()->rowCount(deep), 0);
        QVERIFY(findByName(window.proxy(), QStringLiteral("f0300.txt"), many).isValid());

        // Down a chain of folders to the file, each read on expansion; the file reads through TSK.
        QModelIndex at = deep;
        for (const char *name : {"a", "b", "c", "d", "e", "f"}) {
            window.treeView()->expand(at);
            QTRY_VERIFY_WITH_TIMEOUT(findByName(window.proxy(), QString::fromLatin1(name), at).isValid(), 20000);
            at = findByName(window.proxy(), QString::fromLatin1(name), at);
        }
        window.treeView()->expand(at);
        QTRY_VERIFY_WITH_TIMEOUT(findByName(window.proxy(), QStringLiteral("deep.txt"), at).isValid(), 20000);
        const int32_t file = window.model()->nodeOf(window.proxy()->mapToSource(findByName(window.proxy(), QStringLiteral("deep.txt"), at)));
        QCOMPARE(window.model()->tree().spec(file), test::dataPath(QStringLiteral("images/gpt.v3.qcow2")) + QStringLiteral("!/p2!/deep/a/b/c/d/e/f/deep.txt"));
        QCOMPARE(window.model()->tree().contentSize(file), quint64(24));

        // An empty folder loses its expander once read.
        const QModelIndex lostFound = findByName(window.proxy(), QStringLiteral("lost+found"), p2);
        QVERIFY(lostFound.isValid());
        window.treeView()->expand(lostFound);
        QTRY_VERIFY_WITH_TIMEOUT(!window.proxy()->hasChildren(lostFound), 20000);

        // The tester fetches every folder: the rows stay consistent while they arrive.
        QAbstractItemModelTester tester(window.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 20000);
        QVERIFY(window.model()->tree().size() > before + 300);
    }

    void filterSearchesTheWholeFilesystem()
    {
        // A filesystem opened on its top folder; typing a filter reads the folders not read yet,
        // once each: a match deep down shows, and a folder expanded before keeps its rows once.
        ui::MainWindow window;
        window.show();
        // The SPEC of a partition: the disk's tree, p2 opened in place, selected and expanded.
        const QString spec = test::dataPath(QStringLiteral("images/gpt.v3.qcow2")) + QStringLiteral("!/p2");
        QVERIFY(test::openAndWait(window, spec));
        const QModelIndex p2 = findByName(window.proxy(), QStringLiteral("p2"));
        QVERIFY(p2.isValid());
        QTRY_COMPARE_WITH_TIMEOUT(window.treeView()->currentIndex(), p2, 20000);
        QVERIFY(findByName(window.proxy(), QStringLiteral("p1")).isValid()); // the other partitions stay reachable
        QTRY_VERIFY_WITH_TIMEOUT(findByName(window.proxy(), QStringLiteral("many"), p2).isValid(), 20000);
        QVERIFY(window.treeView()->isExpanded(p2));
        const QModelIndex many = findByName(window.proxy(), QStringLiteral("many"), p2);
        QVERIFY(many.isValid());
        window.treeView()->expand(many);
        QTRY_COMPARE_WITH_TIMEOUT(window.proxy()->rowCount(many), 300, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 20000);

        window.filterEdit()->setText(QStringLiteral("deep.txt"));
        QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), 20000);
        QModelIndex at;
        at = findByName(window.proxy(), QStringLiteral("p2"));
        for (const char *name : {"deep", "a", "b", "c", "d", "e", "f", "deep.txt"}) {
            at = findByName(window.proxy(), QString::fromLatin1(name), at);
            QVERIFY2(at.isValid(), name);
        }
        // Every path once: the rows equal the whole walk of the filesystem.
        window.filterEdit()->clear();
        auto location = resolve(spec);
        QVERIFY(location.ok());
        auto container = openContainer(location->source);
        QVERIFY(container.ok());
        int32_t walked = 0;
        QSet<QByteArray> shown;
        const EntryTree &tree = window.model()->tree();
        const int32_t p2Node = window.model()->nodeOf(window.proxy()->mapToSource(findByName(window.proxy(), QStringLiteral("p2"))));
        const int32_t p2Layer = tree.layerOf(tree.child(p2Node, 0));
        int32_t inP2 = 0;
        for (int32_t node = 1; node < tree.size(); ++node) {
            if (tree.layerOf(node) == p2Layer && node != p2Node) {
                ++inP2;
                shown.insert(tree.path(node).toByteArray());
            }
        }
        QVERIFY((*container)->list([&](const Entry &e) {
                                ++walked;
                                if (!shown.contains(e.path))
                                    qWarning() << "missing" << e.path;
                                return true;
                            })
                    .ok());
        QCOMPARE(inP2, walked);
        // Found again: a filter change re-lays the proxy out, and an index kept across it is stale.
        QCOMPARE(window.proxy()->rowCount(findByName(window.proxy(), QStringLiteral("many"), findByName(window.proxy(), QStringLiteral("p2")))), 300);
        // Nothing left to read: folders do not list again on expansion.
        const QModelIndex deep = findByName(window.proxy(), QStringLiteral("deep"), findByName(window.proxy(), QStringLiteral("p2")));
        QVERIFY(deep.isValid());
        window.treeView()->expand(deep);
        QVERIFY(!window.isBusy());
    }

    void openingAFolderRevealsIt()
    {
        // A SPEC naming a folder deep in a filesystem: the tree is expanded down to it, reading
        // each folder on the way, and the folder is selected with its files listed.
        ui::MainWindow window;
        window.show();
        const QString spec = test::dataPath(QStringLiteral("images/gpt.v3.qcow2")) + QStringLiteral("!/p2!/deep/a/b/c/d/e/f");
        QVERIFY(test::openAndWait(window, spec));
        QTRY_VERIFY_WITH_TIMEOUT(window.treeView()->currentIndex().data().toString() == QStringLiteral("f"), 20000);
        const QModelIndex f = window.treeView()->currentIndex();
        QTRY_VERIFY_WITH_TIMEOUT(findByName(window.proxy(), QStringLiteral("deep.txt"), f).isValid(), 20000);
        QVERIFY(window.treeView()->isExpanded(f.parent()));
        QCOMPARE(window.model()->tree().spec(window.model()->nodeOf(window.proxy()->mapToSource(f))),
                 test::dataPath(QStringLiteral("images/gpt.v3.qcow2")) + QStringLiteral("!/p2!/deep/a/b/c/d/e/f"));
    }
};

QTEST_MAIN(TestDiskImageView)
#include "tst_disk_image_view.moc"
