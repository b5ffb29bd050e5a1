// SPDX-License-Identifier: MIT
// Split and multi-volume sets, made by the tools that make them — 7-Zip's plain splits of a 7z and a
// zip (`7zz -v`), split(1)'s of a tar, Info-ZIP's split zip (`zip -s`) — and RAR5 volumes from
// libarchive's own tests: each opens from any of its parts, through the sandboxed worker (which is
// granted exactly the set's parts), and reads as the whole set; a missing part is an error naming it.

#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace asc;

class TestSplitSets : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    test::RunResult sh(const QString &script) { return test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script}, 120000, dir_.path()); }
    QString at(const QString &name) const { return dir_.filePath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("7zz"));
        ASC_REQUIRE_TOOL(QStringLiteral("zip"));
        ASC_REQUIRE_TOOL(QStringLiteral("split"));
        auto made = sh(QStringLiteral("set -e; mkdir -p src/d; seq 1 100000 > src/numbers.txt; head -c 400000 /dev/urandom > src/d/random.bin; "
                                      "7zz a -bd -y -v100k set.7z src >/dev/null; 7zz a -bd -y -tzip -v100k set.zip.7z src >/dev/null; "
                                      "zip -q -r -s 100k info.zip src; tar -cf tree.tar src; split -b 100k -d -a 3 tree.tar tree.tar."));
        QVERIFY2(made.exitCode == 0, made.err.constData());
    }

    void everyPartOpensTheWholeSet_data()
    {
        QTest::addColumn<QString>("part");
        QTest::newRow("7z, first part") << QStringLiteral("set.7z.001");
        QTest::newRow("7z, a middle part") << QStringLiteral("set.7z.003");
        QTest::newRow("zip split by 7-Zip") << QStringLiteral("set.zip.7z.002");
        QTest::newRow("Info-ZIP, last part") << QStringLiteral("info.zip");
        QTest::newRow("Info-ZIP, a .z part") << QStringLiteral("info.z02");
        QTest::newRow("tar split by split -d, from .000") << QStringLiteral("tree.tar.000");
        QTest::newRow("tar split, the last part") << QStringLiteral("tree.tar.008");
    }

    void everyPartOpensTheWholeSet()
    {
        QFETCH(QString, part);
        QVERIFY2(QFile::exists(at(part)), qPrintable(part));
        auto numbers = test::runCli({QStringLiteral("cat"), at(part) + QStringLiteral("!/src/numbers.txt")});
        QVERIFY2(numbers.exitCode == 0, numbers.err.constData());
        QCOMPARE(test::sha256(numbers.out), test::sha256File(at(QStringLiteral("src/numbers.txt"))));
        auto random = test::runCli({QStringLiteral("cat"), at(part) + QStringLiteral("!/src/d/random.bin")});
        QVERIFY2(random.exitCode == 0, random.err.constData());
        QCOMPARE(test::sha256(random.out), test::sha256File(at(QStringLiteral("src/d/random.bin"))));
        // The details list the parts.
        auto info = test::runCli({QStringLiteral("info"), at(part)});
        QVERIFY2(info.out.contains("parts: ") && info.out.count(", ") >= 2, info.out.constData());
    }

    void rarVolumesOpenFromAnyPart()
    {
        const QString corpus = QStringLiteral(TEST_DATA_DIR "/thirdparty/libarchive-rar5/test_read_format_rar5_multiarchive.part%1.rar");
        auto first = test::runCli({QStringLiteral("ls"), corpus.arg(QStringLiteral("01"))});
        auto middle = test::runCli({QStringLiteral("ls"), corpus.arg(QStringLiteral("05"))});
        QVERIFY2(first.exitCode == 0, first.err.constData());
        QCOMPARE(middle.out, first.out);
        QVERIFY2(first.out.contains("bsdcat_test") && first.out.contains("bsdtar_test"), first.out.constData());
        // The member spanning the volumes reads whole: exit 0 and every byte (part 1 alone once gave zeros).
        auto cat = test::runCli({QStringLiteral("cat"), corpus.arg(QStringLiteral("03")) + QStringLiteral("!/home/antek/temp/build/unrar5/libarchive/bin/bsdtar_test")});
        QVERIFY2(cat.exitCode == 0, cat.err.constData());
        QCOMPARE(cat.out.size(), 365672);
        QVERIFY(cat.out.startsWith("\x7f"
                                   "ELF"));
    }

    void aMissingPartIsNamed()
    {
        auto copied = sh(QStringLiteral("mkdir -p gap && cp info.z01 info.z02 info.z04 info.z05 info.zip gap/ 2>/dev/null; ls info.z0* | wc -l"));
        QVERIFY(copied.out.trimmed().toInt() >= 5);
        auto gap = test::runCli({QStringLiteral("ls"), at(QStringLiteral("gap/info.zip"))});
        QCOMPARE(gap.exitCode, 1);
        QVERIFY2(gap.err.contains("part ") && gap.err.contains("gap/info.z03 of this split set is missing"), gap.err.constData());
        // The last .z part gone: the .zip's own record says how many there are.
        auto tail = sh(QStringLiteral("mkdir -p tail && cp info.z01 info.z02 info.z03 info.z04 info.zip tail/"));
        QCOMPARE(tail.exitCode, 0);
        auto cut = test::runCli({QStringLiteral("ls"), at(QStringLiteral("tail/info.zip"))});
        QCOMPARE(cut.exitCode, 1);
        QVERIFY2(cut.err.contains("tail/info.z05 of this split set is missing"), cut.err.constData());
        // 7-Zip's first part gone, opened from the second.
        auto firstGone = sh(QStringLiteral("mkdir -p nofirst && cp set.7z.002 set.7z.003 nofirst/"));
        QCOMPARE(firstGone.exitCode, 0);
        auto noFirst = test::runCli({QStringLiteral("ls"), at(QStringLiteral("nofirst/set.7z.002"))});
        QCOMPARE(noFirst.exitCode, 1);
        QVERIFY2(noFirst.err.contains("nofirst/set.7z.001 of this split set is missing"), noFirst.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestSplitSets)
#include "tst_split_sets.moc"
