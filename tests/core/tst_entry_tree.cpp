// SPDX-License-Identifier: MIT
// EntryTree: directories implied by deeper paths, a directory entry arriving after its children,
// duplicate names, nested layers, and inserts announced per parent in a consistent order.

#include "vfs/entry_tree.h"

#include <QTest>

using namespace asc;

static Entry make(const char *path, EntryType type = EntryType::File)
{
    Entry e;
    e.path = path;
    e.type = type;
    e.mode = type == EntryType::Dir ? 0755 : 0644;
    return e;
}

class TestEntryTree : public QObject {
    Q_OBJECT

    static QStringList print(const EntryTree &tree, int32_t node = EntryTree::kRoot, int depth = 0)
    {
        QStringList lines;
        for (int row = 0; row < tree.childCount(node); ++row) {
            const int32_t child = tree.child(node, row);
            lines << QString(depth * 2, QLatin1Char(' ')) + QString::fromUtf8(tree.name(child).toByteArray()) +
                         (tree.synthesized(child) ? QStringLiteral(" (implied)") : QString());
            // Structure checks as markers in the printout, so a broken link fails the comparison.
            if (tree.parent(child) != node || tree.child(node, tree.row(child)) != child)
                lines << QStringLiteral("BROKEN LINK");
            lines << print(tree, child, depth + 1);
        }
        return lines;
    }

private Q_SLOTS:
    void impliedDirectoriesAndLateEntries()
    {
        EntryTree tree;
        const int32_t layer = tree.addLayer(nullptr, QStringLiteral("a.zip"), EntryTree::kRoot);
        std::vector<std::pair<int32_t, std::pair<int, int>>> inserts;
        int open = 0;
        std::vector<int32_t> changed;
        EntryTree::Observer observer;
        observer.beginInsert = [&](int32_t parent, int first, int last) {
            QCOMPARE(open, 0);
            ++open;
            QCOMPARE(tree.childCount(parent), first); // appended at the end
            inserts.push_back({parent, {first, last}});
        };
        observer.endInsert = [&] { --open; };
        observer.changed = [&](int32_t node) { changed.push_back(node); };

        std::vector<Entry> batch1 = {make("x/y/z.txt"), make("x/a.txt"), make("top.txt")};
        tree.append(layer, std::move(batch1), observer);
        QCOMPARE(print(tree), QStringList({QStringLiteral("x (implied)"), QStringLiteral("  y (implied)"), QStringLiteral("    z.txt"),
                                           QStringLiteral("  a.txt"), QStringLiteral("top.txt")}));
        // root gets x and top.txt in one insert; x gets y and a.txt; y gets z.txt.
        QCOMPARE(int(inserts.size()), 3);
        QCOMPARE(inserts[0].first, EntryTree::kRoot);
        QCOMPARE(inserts[0].second, std::make_pair(0, 1));

        inserts.clear();
        std::vector<Entry> batch2 = {make("x", EntryType::Dir), make("x/y/w.txt"), make("top.txt")};
        tree.append(layer, std::move(batch2), observer);
        QCOMPARE(int(changed.size()), 1); // x is now a real entry
        QVERIFY(!tree.synthesized(changed[0]));
        QCOMPARE(tree.entry(changed[0]).mode, 0755u);
        QCOMPARE(print(tree), QStringList({QStringLiteral("x"), QStringLiteral("  y (implied)"), QStringLiteral("    z.txt"),
                                           QStringLiteral("    w.txt"), QStringLiteral("  a.txt"), QStringLiteral("top.txt"),
                                           QStringLiteral("top.txt")}));
        QCOMPARE(tree.spec(tree.child(EntryTree::kRoot, 0)), QStringLiteral("a.zip!/x"));
    }

    void nestedLayer()
    {
        EntryTree tree;
        const int32_t outer = tree.addLayer(nullptr, QStringLiteral("o.tar"), EntryTree::kRoot);
        tree.append(outer, {make("in.zip")}, {});
        const int32_t zipNode = tree.child(EntryTree::kRoot, 0);
        const int32_t inner = tree.addLayer(nullptr, tree.spec(zipNode), zipNode);
        tree.append(inner, {make("d/f.txt")}, {});
        QVERIFY(tree.isLayerRoot(zipNode));
        const int32_t d = tree.child(zipNode, 0);
        const int32_t f = tree.child(d, 0);
        QCOMPARE(tree.spec(f), QStringLiteral("o.tar!/in.zip!/d/f.txt"));
    }
};

QTEST_GUILESS_MAIN(TestEntryTree)
#include "tst_entry_tree.moc"
