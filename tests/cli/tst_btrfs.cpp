// SPDX-License-Identifier: MIT
// Our btrfs reader against what the kernel and btrfs-progs wrote. A volume the kernel wrote through
// a mount as Fedora lays it out (tests/data/disks/make_btrfs.sh: subvolumes, a snapshot, zstd, lzo
// and zlib extents, inline, sparse, preallocated and reflinked files), compared entry by entry with
// what the kernel showed; volumes mkfs.btrfs --rootdir wrote at test time with each checksum type
// and metadata profile, extracted and compared with diff -r; damage as errors naming where.

#include "filesystem_truth.h"
#include "fixtures.h"
#include "test_files.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace asc;

class TestBtrfs : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString kernel_;

    test::RunResult sh(const QString &script) { return test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script}, 300000, dir_.path()); }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("mkfs.btrfs"));
        ASC_REQUIRE_TOOL(QStringLiteral("xz"));
        kernel_ = dir_.filePath(QStringLiteral("kernel.img"));
        auto unpacked = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("xz -dc \"$0\" > \"$1\""), test::dataPath(QStringLiteral("disks/btrfs-kernel.img.xz")), kernel_});
        QVERIFY2(unpacked.exitCode == 0, unpacked.err.constData());
        auto made = sh(QStringLiteral("set -e; mkdir -p src/etc src/var/lib/many src/usr/bin src/big; cd src; "
                                      "printf 'host\\n' > etc/hostname; seq 1 200000 > big/numbers; head -c 3000000 /dev/urandom > big/random.bin; "
                                      "truncate -s 9M big/sparse; printf end >> big/sparse; : > etc/empty; printf 'k\\n' > etc/key; chmod 600 etc/key; "
                                      "ln -s ../../etc/hostname usr/bin/short; ln -s $(printf 'q%.0s' $(seq 1 800))/target usr/bin/long; "
                                      "i=0; while [ $i -lt 2000 ]; do printf $i > var/lib/many/item_$i; i=$((i + 1)); done"));
        QVERIFY2(made.exitCode == 0, made.err.constData());
    }

    void theKernelsVolumeReadsAsTheKernelShowedIt()
    {
        int rows = 0;
        const QString differences = test::differencesFromKernel(kernel_, test::dataPath(QStringLiteral("disks/btrfs-kernel.files.tsv")), rows);
        QVERIFY2(differences.isEmpty(), qPrintable(differences));
        QVERIFY(rows > 30);
        auto ls = test::runCli({QStringLiteral("ls"), kernel_});
        QVERIFY2(ls.out.contains("home-snapshot  [subvolume"), ls.out.constData());
        auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), kernel_});
        const QJsonObject o = QJsonDocument::fromJson(info.out).object();
        QCOMPARE(o[QStringLiteral("label")].toString(), QStringLiteral("fedora"));
        QCOMPARE(o[QStringLiteral("reader")].toString(), QStringLiteral("ArchiveScope's btrfs reader"));
    }

    void layoutsMkfsWritesReadAsWritten_data()
    {
        QTest::addColumn<QString>("options");
        QTest::newRow("defaults (crc32c, DUP metadata)") << QString();
        QTest::newRow("xxhash64") << QStringLiteral("--csum xxhash");
        QTest::newRow("sha256") << QStringLiteral("--csum sha256");
        QTest::newRow("blake2b, single metadata") << QStringLiteral("--csum blake2 -m single");
        QTest::newRow("64 KiB nodes") << QStringLiteral("-n 65536");
    }

    void layoutsMkfsWritesReadAsWritten()
    {
        QFETCH(QString, options);
        auto made = sh(QStringLiteral("rm -rf fs.img out && truncate -s 256M fs.img && mkfs.btrfs -q -f %1 --rootdir src fs.img").arg(options));
        QVERIFY2(made.exitCode == 0, made.err.constData());
        auto extracted = test::runCli({QStringLiteral("extract"), dir_.filePath(QStringLiteral("fs.img")), QStringLiteral("-C"), dir_.filePath(QStringLiteral("out"))});
        QVERIFY2(extracted.exitCode == 0, extracted.err.constData());
        auto diff = sh(QStringLiteral("diff -r --no-dereference src out && echo same"));
        QCOMPARE(QString::fromUtf8(diff.out).trimmed(), QStringLiteral("same"));
        auto ls = test::runCli({QStringLiteral("ls"), dir_.filePath(QStringLiteral("fs.img")) + QStringLiteral("!/etc")});
        QVERIFY2(ls.out.contains("-rw------- 0/0                         2 "), ls.out.constData());
    }

    void damageIsAnErrorNamingWhere()
    {
        // A byte in the tree node holding a file's extents: its checksum fails; that file is an
        // error, never other bytes.
        const QString bad = dir_.filePath(QStringLiteral("bad.img"));
        QVERIFY(QFile::copy(kernel_, bad));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray all = f.readAll();
        f.close();
        // The hostname's inline extent lives in a leaf, kept twice (DUP metadata): one damaged copy
        // is passed over for the other, as the kernel does; both damaged is an error.
        // (Older versions of the leaf remain too: copy 0's area holds the first half of them.)
        QList<qsizetype> found;
        for (qsizetype at = all.indexOf("fedora\n"); at >= 0; at = all.indexOf("fedora\n", at + 1))
            found << at;
        QVERIFY(found.size() >= 2 && found.size() % 2 == 0);
        for (qsizetype i = 0; i < found.size() / 2; ++i)
            QVERIFY(test::flipByte(bad, found[i]));
        auto healed = test::runCli({QStringLiteral("cat"), bad + QStringLiteral("!/root/etc/hostname")});
        QCOMPARE(healed.exitCode, 0);
        QCOMPARE(healed.out, QByteArray("fedora\n"));
        for (qsizetype i = found.size() / 2; i < found.size(); ++i)
            QVERIFY(test::flipByte(bad, found[i]));
        auto cat = test::runCli({QStringLiteral("cat"), bad + QStringLiteral("!/root/etc/hostname")});
        QCOMPARE(cat.exitCode, 1);
        QCOMPARE(cat.out.size(), 0);
        QVERIFY2(cat.err.contains("fails its crc32c checksum in every copy"), cat.err.constData());
        // The superblock's own checksum.
        const QString badSuper = dir_.filePath(QStringLiteral("bad-super.img"));
        QVERIFY(QFile::copy(kernel_, badSuper));
        QVERIFY(test::flipByte(badSuper, 0x10000 + 0x12b)); // a byte of the label
        auto ls = test::runCli({QStringLiteral("ls"), badSuper});
        QCOMPARE(ls.exitCode, 1);
        QVERIFY2(ls.err.contains("btrfs superblock fails its crc32c checksum"), ls.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestBtrfs)
#include "tst_btrfs.moc"
