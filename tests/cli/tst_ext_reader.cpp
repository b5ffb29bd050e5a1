// SPDX-License-Identifier: MIT
// Our ext2/3/4 reader against the tree mke2fs -d wrote into each layout: ext4 as Debian makes it
// (extents, 64bit, flex_bg, metadata_csum, an htree folder of 3,000 names), inline data (an
// 80-byte file: The Sleuth Kit gave bytes 61-80 as zeros), revision 0 ext2 (TSK listed nothing),
// ext3 with 1 KiB blocks (indirect blocks), bigalloc and meta_bg. Every file, symlink (a long one
// too: TSK gave '') and hard link is compared after `extract`, with diff -r.

#include "test_files.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace asc;

class TestExtReader : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    test::RunResult sh(const QString &script) { return test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script}, 120000, dir_.path()); }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("mke2fs"));
        ASC_REQUIRE_TOOL(QStringLiteral("diff"));
        auto made = sh(QStringLiteral("set -e; mkdir -p src/a/b/c src/deep src/big; cd src; printf 'short\\n' > a/tiny.txt; "
                                      "head -c 80 /dev/urandom > a/b/eighty.bin; head -c 3000000 /dev/urandom > big/three.bin; "
                                      "truncate -s 20M big/sparse.bin; printf tail >> big/sparse.bin; "
                                      "dd if=/dev/urandom of=big/sparse.bin bs=4096 seek=1000 count=3 conv=notrunc 2>/dev/null; "
                                      "ln -s a/tiny.txt shortlink; ln -s $(printf 'x%.0s' $(seq 1 100))/target longlink; "
                                      "ln a/tiny.txt hard.txt; : > empty; "
                                      "i=0; while [ $i -lt 3000 ]; do : > deep/file_with_a_longer_name_$i; i=$((i + 1)); done"));
        QVERIFY2(made.exitCode == 0, made.err.constData());
    }

    void layoutsReadAsWritten_data()
    {
        QTest::addColumn<QString>("options");
        QTest::newRow("ext4") << QStringLiteral("-t ext4");
        QTest::newRow("inline_data") << QStringLiteral("-t ext4 -O inline_data");
        QTest::newRow("ext2 revision 0") << QStringLiteral("-t ext2 -r 0");
        QTest::newRow("ext3 1 KiB blocks") << QStringLiteral("-t ext3 -b 1024");
        QTest::newRow("bigalloc") << QStringLiteral("-t ext4 -O bigalloc -C 16384");
        QTest::newRow("meta_bg") << QStringLiteral("-t ext4 -O meta_bg,^resize_inode");
    }

    void layoutsReadAsWritten()
    {
        QFETCH(QString, options);
        const QString image = dir_.filePath(QStringLiteral("fs.img"));
        auto made = sh(QStringLiteral("rm -rf fs.img out; mke2fs -q -F %1 -d src fs.img 64M").arg(options));
        QVERIFY2(made.exitCode == 0, made.err.constData());
        auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), image});
        QVERIFY2(info.exitCode == 0, info.err.constData());
        QCOMPARE(QJsonDocument::fromJson(info.out).object().value(QStringLiteral("reader")).toString(), QStringLiteral("ArchiveScope's ext reader"));
        auto extracted = test::runCli({QStringLiteral("extract"), image, QStringLiteral("-C"), dir_.filePath(QStringLiteral("out"))});
        QVERIFY2(extracted.exitCode == 0, extracted.err.constData());
        auto diff = sh(QStringLiteral("diff -r --no-dereference src out"));
        // lost+found is a real folder of the filesystem, which the source tree has not.
        QCOMPARE(QString::fromUtf8(diff.out).trimmed(), QStringLiteral("Only in out: lost+found"));
        auto link = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), image});
        QVERIFY(link.out.contains("\"target\":\"" + QByteArray(100, 'x') + "/target\""));
        auto eighty = test::runCli({QStringLiteral("cat"), image + QStringLiteral("!/a/b/eighty.bin")});
        QCOMPARE(test::sha256(eighty.out), test::sha256File(dir_.filePath(QStringLiteral("src/a/b/eighty.bin"))));
    }

    void anEncryptedOrDamagedFileIsAnErrorNamingIt()
    {
        // The inode of a file whose extent header is overwritten: an error naming the file.
        auto made = sh(QStringLiteral("rm -f bad.img; mke2fs -q -F -t ext4 -d src bad.img 64M && debugfs -R 'stat /big/three.bin' bad.img 2>/dev/null | grep -o 'EXTENTS:' >/dev/null && "
                                      "debugfs -w -R 'sif /big/three.bin block[0] 0' bad.img 2>/dev/null"));
        QVERIFY2(made.exitCode == 0, made.err.constData());
        auto cat = test::runCli({QStringLiteral("cat"), dir_.filePath(QStringLiteral("bad.img")) + QStringLiteral("!/big/three.bin")});
        QCOMPARE(cat.exitCode, 1);
        QCOMPARE(cat.out.size(), 0);
        QVERIFY2(cat.err.contains("bad.img!/big/three.bin") && cat.err.contains("extent"), cat.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestExtReader)
#include "tst_ext_reader.moc"
