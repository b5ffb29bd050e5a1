// SPDX-License-Identifier: MIT
// Nothing lost: names that collide inside one extraction (three `copyright` files extracted
// without folders) are conflicts like names already on disk — asked about, or settled by the
// policy (keep both numbers them) — never silently replaced; a later copy of the same member path
// (a tar with an appended member) still replaces its earlier copy, as tar does; symlinks left
// pointing at nothing are reported. Tars are made by GNU tar.

#include "open/spec.h"
#include "test_files.h"
#include "vfs/extraction.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace asc;

class TestExtractionConflicts : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString tree_; // made by GNU tar from this folder
    QString appended_; // the same member twice

    static QByteArray readAll(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<missing>");
    }

    ContainerPtr open(const QString &archive)
    {
        auto location = resolve(archive);
        if (!location)
            return {};
        auto container = containerAt(*location);
        return container ? *container : ContainerPtr();
    }

    static QStringList filesIn(const QString &path)
    {
        return QDir(path).entryList(QDir::Files | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
    }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("tar"));
        const QString src = dir_.filePath(QStringLiteral("src"));
        for (const char *folder : {"a", "b", "c", "links"})
            QVERIFY(QDir().mkpath(src + QLatin1Char('/') + QLatin1String(folder)));
        test::writeFile(dir_, QStringLiteral("src/a/copyright"), "from a\n");
        test::writeFile(dir_, QStringLiteral("src/b/copyright"), "from b\n");
        test::writeFile(dir_, QStringLiteral("src/c/copyright"), "from c\n");
        // Whole with folders; dangling once flattened (its target is one folder up).
        QVERIFY(QFile::link(QStringLiteral("../a/copyright"), src + QStringLiteral("/links/up")));
        // Dangling in the archive itself.
        QVERIFY(QFile::link(QStringLiteral("nowhere"), src + QStringLiteral("/links/broken")));
        tree_ = dir_.filePath(QStringLiteral("tree.tar"));
        auto made = test::run(QStringLiteral("tar"), {QStringLiteral("-cf"), tree_, QStringLiteral("-C"), src, QStringLiteral("a"),
                                                      QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("links")});
        QCOMPARE(made.exitCode, 0);

        appended_ = dir_.filePath(QStringLiteral("appended.tar"));
        QCOMPARE(test::run(QStringLiteral("tar"), {QStringLiteral("-cf"), appended_, QStringLiteral("-C"), src, QStringLiteral("a/copyright")}).exitCode, 0);
        test::writeFile(dir_, QStringLiteral("src/a/copyright"), "from a, version 2\n");
        QCOMPARE(test::run(QStringLiteral("tar"), {QStringLiteral("-rf"), appended_, QStringLiteral("-C"), src, QStringLiteral("a/copyright")}).exitCode, 0);
    }

    void keepBothNumbersNamesTakenInsideOneExtraction()
    {
        ContainerPtr container = open(tree_);
        QVERIFY(container);
        const QString target = dir_.filePath(QStringLiteral("both"));
        ExtractOptions options;
        options.flatten = true;
        options.existing = ExistingPolicy::KeepBoth;
        auto report = extractEntries(*container, {}, target, options);
        QVERIFY(report);
        QCOMPARE(filesIn(target), (QStringList{QStringLiteral("broken"), QStringLiteral("copyright"), QStringLiteral("copyright (2)"),
                                               QStringLiteral("copyright (3)"), QStringLiteral("up")}));
        QCOMPARE(readAll(target + QStringLiteral("/copyright")), QByteArray("from a\n"));
        QCOMPARE(readAll(target + QStringLiteral("/copyright (2)")), QByteArray("from b\n"));
        QCOMPARE(readAll(target + QStringLiteral("/copyright (3)")), QByteArray("from c\n"));
        QCOMPARE(report->files, 3u);
        QCOMPARE(report->replaced, 0u);
        QCOMPARE(report->renamed, 2u);
        QVERIFY(report->refused.empty());
        // Flattened, "../a/copyright" points outside the folder; "nowhere" was never there.
        QCOMPARE(report->danglingLinks.size(), size_t(2));
        for (const ExtractRefusal &link : report->danglingLinks) {
            QVERIFY(link.path == "links/up" || link.path == "links/broken");
            if (link.path == "links/up")
                QVERIFY2(link.reason.contains(QStringLiteral("outside")), qPrintable(link.reason));
            else
                QVERIFY2(link.reason.contains(QStringLiteral("not extracted")), qPrintable(link.reason));
        }
        QVERIFY(describeReport(*report).contains(QStringLiteral("2 symlinks pointing at nothing extracted")));
    }

    void theDefaultRefusesAndNamesTheEarlierMember()
    {
        ContainerPtr container = open(tree_);
        QVERIFY(container);
        const QString target = dir_.filePath(QStringLiteral("refuse"));
        ExtractOptions options;
        options.flatten = true;
        auto report = extractEntries(*container, {}, target, options);
        QVERIFY(report);
        QCOMPARE(readAll(target + QStringLiteral("/copyright")), QByteArray("from a\n"));
        QCOMPARE(report->refused.size(), size_t(2));
        QCOMPARE(report->refused[0].path, QByteArray("b/copyright"));
        QVERIFY2(report->refused[0].reason.contains(QStringLiteral("'a/copyright'")), qPrintable(report->refused[0].reason));
        QCOMPARE(report->replaced, 0u);
    }

    void askIsAskedForEachCollisionWithBothMembers()
    {
        ContainerPtr container = open(tree_);
        QVERIFY(container);
        const QString target = dir_.filePath(QStringLiteral("ask"));
        QList<ExtractConflict> asked;
        ExtractOptions options;
        options.flatten = true;
        options.existing = ExistingPolicy::Ask;
        options.ask = [&](const ExtractConflict &conflict, bool *) {
            asked << conflict;
            return asked.size() == 1 ? ExistingPolicy::Overwrite : ExistingPolicy::Skip;
        };
        auto report = extractEntries(*container, {}, target, options);
        QVERIFY(report);
        QCOMPARE(asked.size(), 2);
        QCOMPARE(asked[0].member, QByteArray("b/copyright"));
        QCOMPARE(asked[0].earlier, QByteArray("a/copyright"));
        QCOMPARE(asked[0].written, QByteArray("copyright"));
        QCOMPARE(asked[1].member, QByteArray("c/copyright"));
        QCOMPARE(asked[1].earlier, QByteArray("b/copyright"));
        QCOMPARE(readAll(target + QStringLiteral("/copyright")), QByteArray("from b\n")); // overwritten once, then c skipped
        QCOMPARE(report->replaced, 1u);
        QCOMPARE(report->skipped, 1u);
        QCOMPARE(report->files, 1u);

        // A second extraction into the same folder: the name is there before, asked as such.
        asked.clear();
        options.flatten = false;
        auto again = extractEntries(*container, QByteArray("a"), target, options);
        QVERIFY(again);
        QVERIFY(asked.isEmpty()); // a/copyright is new with folders
        auto flatAgain = extractEntries(*container, QByteArray("c"), target, ExtractOptions{ExistingPolicy::Ask, options.ask, true});
        QVERIFY(flatAgain);
        QCOMPARE(asked.size(), 1);
        QVERIFY(asked[0].earlier.isEmpty());
    }

    void withFoldersLinksResolveAndAnAppendedMemberReplacesItsCopy()
    {
        ContainerPtr container = open(tree_);
        QVERIFY(container);
        const QString target = dir_.filePath(QStringLiteral("folders"));
        auto report = extractEntries(*container, {}, target, ExtractOptions{});
        QVERIFY(report);
        QCOMPARE(report->files, 3u);
        QCOMPARE(report->danglingLinks.size(), size_t(1)); // only the one dangling in the archive
        QCOMPARE(report->danglingLinks[0].path, QByteArray("links/broken"));

        ContainerPtr appended = open(appended_);
        QVERIFY(appended);
        const QString second = dir_.filePath(QStringLiteral("appended"));
        int questions = 0;
        ExtractOptions options;
        options.existing = ExistingPolicy::Ask;
        options.ask = [&](const ExtractConflict &, bool *) {
            ++questions;
            return ExistingPolicy::Skip;
        };
        auto replaced = extractEntries(*appended, {}, second, options);
        QVERIFY(replaced);
        QCOMPARE(questions, 0);
        QCOMPARE(readAll(second + QStringLiteral("/a/copyright")), QByteArray("from a, version 2\n"));
        QCOMPARE(replaced->files, 1u);
        QCOMPARE(replaced->replaced, 1u);
    }
};

QTEST_GUILESS_MAIN(TestExtractionConflicts)
#include "tst_extraction_conflicts.moc"
