// SPDX-License-Identifier: MIT
// Partitioned disks made by the real tools: a GPT disk (sgdisk) with FAT (mkfs.vfat), ext4
// (mkfs.ext4) and an ISO 9660 image (xorriso) in its third partition; an MBR disk (sfdisk) with
// logical partitions. Partition lists, sizes and types are right, and the ISO's files are listed
// and read through SPECs — also when the disk is wrapped in a qcow2 image.

#include "test_files.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace asc;

class TestPartitionsRealTools : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QByteArray isoFile_ = test::seededBytes(300001, 55);

    void sh(const QString &script)
    {
        auto r = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("set -e; cd \"$1\"; ") + script, QStringLiteral("sh"), dir_.path()}, 120000);
        QVERIFY2(r.exitCode == 0, (script.toUtf8() + "\n" + r.err).constData());
    }

    static QList<QJsonObject> ls(const QString &spec)
    {
        auto r = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), spec});
        QList<QJsonObject> entries;
        for (const QByteArray &line : r.out.split('\n'))
            if (!line.isEmpty())
                entries << QJsonDocument::fromJson(line).object();
        return entries;
    }

private Q_SLOTS:
    void initTestCase()
    {
        for (const char *tool : {"sgdisk", "sfdisk", "mkfs.vfat", "mkfs.ext4", "xorriso", "qemu-img"})
            ASC_REQUIRE_TOOL(QString::fromLatin1(tool));
        QDir().mkpath(dir_.filePath(QStringLiteral("isotree/docs")));
        test::writeFile(dir_, QStringLiteral("isotree/docs/payload.bin"), isoFile_);
        test::writeFile(dir_, QStringLiteral("isotree/readme.txt"), "iso in a partition\n");
    }

    void gptWithFatExt4AndIso()
    {
        // 1 MiB = 2048 sectors. p1 FAT 8 MiB, p2 ext4 8 MiB, p3 ISO 4 MiB.
        sh(QStringLiteral(
            "truncate -s 24M gpt.raw && sgdisk -n 1:2048:+8M -t 1:0700 -c 1:data -n 2:0:+8M -t 2:8300 -c 2:root -n 3:0:+4M -t 3:8300 gpt.raw >/dev/null && "
            "mkfs.vfat -C fat.img 8192 >/dev/null && mkfs.ext4 -q -F ext4.img 8M && xorriso -as mkisofs -quiet -R -J -o iso.img isotree && "
            "dd if=fat.img of=gpt.raw bs=1M seek=1 conv=notrunc status=none && dd if=ext4.img of=gpt.raw bs=1M seek=9 conv=notrunc status=none && "
            "dd if=iso.img of=gpt.raw bs=1M seek=17 conv=notrunc status=none && qemu-img convert -f raw -O qcow2 gpt.raw gpt.qcow2"));
        for (const QString &disk : {dir_.filePath(QStringLiteral("gpt.raw")), dir_.filePath(QStringLiteral("gpt.qcow2"))}) {
            const QList<QJsonObject> parts = ls(disk);
            QCOMPARE(parts.size(), 3);
            QCOMPARE(parts[0][QStringLiteral("path")].toString(), QStringLiteral("p1"));
            QCOMPARE(parts[0][QStringLiteral("type")].toString(), QStringLiteral("partition"));
            QCOMPARE(parts[0][QStringLiteral("size")].toInteger(), 8 << 20);
            QCOMPARE(parts[0][QStringLiteral("offset")].toInteger(), 1 << 20);
            QVERIFY(parts[0][QStringLiteral("detail")].toString().contains(QStringLiteral("Microsoft basic data")));
            QVERIFY(parts[0][QStringLiteral("detail")].toString().contains(QStringLiteral("FAT")));
            QVERIFY(parts[1][QStringLiteral("detail")].toString().contains(QStringLiteral("Linux filesystem")));
            QVERIFY(parts[1][QStringLiteral("detail")].toString().contains(QStringLiteral("ext4")));
            QVERIFY(parts[2][QStringLiteral("detail")].toString().contains(QStringLiteral("ISO 9660")));
            const QList<QJsonObject> iso = ls(disk + QStringLiteral("!/p3"));
            QStringList names;
            for (const auto &e : iso)
                names << e[QStringLiteral("path")].toString();
            QVERIFY2(names.contains(QStringLiteral("docs/payload.bin")) && names.contains(QStringLiteral("readme.txt")), qPrintable(names.join(QLatin1Char(','))));
            auto cat = test::runCli({QStringLiteral("cat"), disk + QStringLiteral("!/p3!/docs/payload.bin")});
            QCOMPARE(cat.exitCode, 0);
            QVERIFY(cat.out == isoFile_);
            auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), disk});
            const QJsonObject o = QJsonDocument::fromJson(info.out).object();
            const QJsonObject table = o.contains(QStringLiteral("content")) ? o[QStringLiteral("content")].toObject() : o;
            QCOMPARE(table[QStringLiteral("label")].toString(), QStringLiteral("gpt"));
            QCOMPARE(table[QStringLiteral("partitions")].toArray()[1].toObject()[QStringLiteral("partition_name")].toString(), QStringLiteral("root"));
        }
    }

    void mbrWithLogicalPartitions()
    {
        sh(QStringLiteral(
            "truncate -s 16M mbr.raw && printf 'label: dos\\n2048,4096,c,*\\n6144,,5\\n8192,2048,83\\n12288,,7\\n' | sfdisk -q mbr.raw && "
            "dd if=iso.img of=mbr.raw bs=512 seek=12288 conv=notrunc status=none"));
        const QList<QJsonObject> parts = ls(dir_.filePath(QStringLiteral("mbr.raw")));
        QStringList names;
        for (const auto &p : parts)
            names << p[QStringLiteral("path")].toString();
        QCOMPARE(names, QStringList({QStringLiteral("p1"), QStringLiteral("p2"), QStringLiteral("p5"), QStringLiteral("p6")}));
        QCOMPARE(parts[0][QStringLiteral("size")].toInteger(), 4096 * 512);
        QVERIFY(parts[1][QStringLiteral("detail")].toString().contains(QStringLiteral("Extended")));
        QCOMPARE(parts[2][QStringLiteral("offset")].toInteger(), 8192 * 512);
        QCOMPARE(parts[2][QStringLiteral("size")].toInteger(), 2048 * 512);
        QVERIFY(parts[2][QStringLiteral("detail")].toString().contains(QStringLiteral("Linux")));
        QCOMPARE(parts[3][QStringLiteral("offset")].toInteger(), 12288 * 512);
        auto cat = test::runCli({QStringLiteral("cat"), dir_.filePath(QStringLiteral("mbr.raw!/p6!/docs/payload.bin"))});
        QCOMPARE(cat.exitCode, 0);
        QVERIFY(cat.out == isoFile_);
        // The extended partition is not a disk of its own: listing it does not list p5 and p6
        // again (misnamed p1, p2 from the boot-record chain); its bytes still read.
        auto extended = test::runCli({QStringLiteral("ls"), dir_.filePath(QStringLiteral("mbr.raw!/p2"))});
        QCOMPARE(extended.exitCode, 1);
        QVERIFY2(extended.out.isEmpty() && extended.err.contains("extended partition"), extended.err.constData());
        auto bytes = test::runCli({QStringLiteral("cat"), dir_.filePath(QStringLiteral("mbr.raw!/p2"))});
        QCOMPARE(bytes.exitCode, 0);
        QVERIFY(bytes.out.size() > 0);
    }
};

QTEST_GUILESS_MAIN(TestPartitionsRealTools)
#include "tst_partitions_real_tools.moc"
