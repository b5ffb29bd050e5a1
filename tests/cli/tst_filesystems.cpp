// SPDX-License-Identifier: MIT
// Filesystems inside disks and images: every file of the reference disks' .files.tsv lists
// (FAT12/16/32, ext2, ext4 partitions; the ISO) is found by `ls` and `cat` matches its sha256,
// through the raw disks and through every container format they come in; filesystems made at
// test time by real tools (mkfs.vfat, mkfs.ext4 -d, mkfs.ntfs + ntfscp, mkfs.exfat) likewise;
// corrupted filesystems (truncated, bad superblock, a cyclic FAT chain, an extent tree that loops)
// end cleanly.

#include "fixtures.h"
#include "test_files.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace asc;

class TestFilesystems : public QObject {
    Q_OBJECT

    QTemporaryDir scratch_;
    std::vector<test::ImageFixture> fixtures_;

    struct Expected {
        QString partition; // "p1-fat16" -> p1
        QString type;
        QString path;
        qint64 size;
        QByteArray sha;
    };

    static std::vector<Expected> expectations(const QString &tsv)
    {
        std::vector<Expected> all;
        QFile f(tsv);
        if (!f.open(QIODevice::ReadOnly))
            return all;
        for (const QByteArray &line : f.readAll().split('\n')) {
            const QList<QByteArray> c = line.split('\t');
            if (c.size() < 5)
                continue;
            all.push_back({QString::fromUtf8(c[0]), QString::fromUtf8(c[1]), QString::fromUtf8(c[2]), c[3] == "-" ? -1 : c[3].toLongLong(), c[4]});
        }
        return all;
    }

    // Checks every listed file of `tsv` through `disk` (a raw disk or an image of it).
    void checkDisk(const QString &disk, const QString &tsv, bool partitioned)
    {
        const auto expected = expectations(tsv);
        QVERIFY(!expected.empty());
        QMap<QString, QByteArray> listings;
        for (const Expected &e : expected) {
            const QString part = e.partition.section(QLatin1Char('-'), 0, 0);
            const QString prefix = partitioned ? disk + QStringLiteral("!/") + part : disk;
            if (!listings.contains(prefix)) {
                auto r = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), prefix});
                QVERIFY2(r.exitCode == 0, (prefix.toUtf8() + ": " + r.err).constData());
                listings.insert(prefix, r.out);
            }
            QVERIFY2(listings[prefix].contains("\"path\":\"" + e.path.toUtf8() + "\""), qPrintable(prefix + QStringLiteral(" lacks ") + e.path));
            // Every file is listed; contents are read for all but most of the 300 many/fNNNN.txt
            // (one process per file; every tenth of those is enough to cover that directory).
            if (e.type != QLatin1String("file") || (e.path.startsWith(QLatin1String("many/")) && !e.path.endsWith(QLatin1String("0.txt"))))
                continue;
            auto cat = test::runCli({QStringLiteral("cat"), prefix + QStringLiteral("!/") + e.path});
            QVERIFY2(cat.exitCode == 0, cat.err.constData());
            QCOMPARE(qint64(cat.out.size()), e.size);
            QVERIFY2(test::sha256(cat.out) == e.sha, qPrintable(prefix + QStringLiteral("!/") + e.path));
        }
    }

private Q_SLOTS:
    void initTestCase() { fixtures_ = test::imageFixtures(scratch_); }

    void referenceDisks_data()
    {
        QTest::addColumn<QString>("disk");
        QTest::addColumn<QString>("tsv");
        QTest::addColumn<bool>("partitioned");
        for (const auto &fx : fixtures_) {
            if (fx.expect != QLatin1String("read"))
                continue;
            QString tsv;
            bool partitioned = true;
            const QString sha = QString::fromLatin1(fx.virtualSha256);
            // Which content the image carries: by the virtual disk's hash, as the index lists it.
            for (const auto &raw : fixtures_) {
                if (raw.format != QLatin1String("raw") || QString::fromLatin1(raw.virtualSha256) != sha)
                    continue;
                tsv = test::dataPath(QStringLiteral("images/") + raw.name.section(QLatin1Char('.'), 0, 0) + QStringLiteral(".files.tsv"));
                partitioned = !raw.name.endsWith(QLatin1String(".iso"));
            }
            if (tsv.isEmpty() || !QFile::exists(tsv))
                continue;
            QTest::newRow(qPrintable(fx.name)) << fx.path << tsv << partitioned;
        }
    }

    void referenceDisks()
    {
        QFETCH(QString, disk);
        QFETCH(QString, tsv);
        QFETCH(bool, partitioned);
        checkDisk(disk, tsv, partitioned);
    }

    void madeByRealTools()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("mkfs.vfat"));
        ASC_REQUIRE_TOOL(QStringLiteral("mkfs.ext4"));
        const QString root = scratch_.filePath(QStringLiteral("content"));
        QDir().mkpath(root + QStringLiteral("/sub/deeper"));
        const QByteArray big = test::seededBytes(300000, 8);
        test::writeFile(scratch_, QStringLiteral("content/big.bin"), big);
        test::writeFile(scratch_, QStringLiteral("content/sub/deeper/small.txt"), "small\n");
        auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"),
                                                          QStringLiteral("set -e; cd \"$1\"; mkfs.ext4 -q -F -d content ext4.img 8M; mkfs.vfat -C fat.img 4096 >/dev/null; "
                                                                         "mcopy -s -i fat.img content/big.bin content/sub ::/; "
                                                                         "qemu-img convert -f raw -O qcow2 ext4.img ext4.qcow2; qemu-img convert -f raw -O vmdk ext4.img ext4.vmdk"),
                                                          QStringLiteral("sh"), scratch_.path()});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        for (const QString &image : {QStringLiteral("ext4.img"), QStringLiteral("fat.img"), QStringLiteral("ext4.qcow2")}) {
            const QString spec = scratch_.filePath(image);
            auto cat = test::runCli({QStringLiteral("cat"), spec + QStringLiteral("!/big.bin")});
            QVERIFY2(cat.exitCode == 0, (image.toUtf8() + ": " + cat.err).constData());
            QVERIFY(cat.out == big);
            auto small = test::runCli({QStringLiteral("cat"), spec + QStringLiteral("!/sub/deeper/small.txt")});
            QCOMPARE(small.out, QByteArray("small\n"));
        }
        // Extraction reads contents while the filesystem is being walked.
        const QString out = scratch_.filePath(QStringLiteral("extracted"));
        auto extracted = test::runCli({QStringLiteral("extract"), scratch_.filePath(QStringLiteral("ext4.qcow2")), QStringLiteral("-C"), out}, 60000);
        QVERIFY2(extracted.exitCode == 0 || extracted.err.contains("lost+found"), extracted.err.constData());
        QCOMPARE(test::sha256File(out + QStringLiteral("/big.bin")), test::sha256(big));
        QCOMPARE(test::sha256File(out + QStringLiteral("/sub/deeper/small.txt")), test::sha256("small\n"));
        auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), scratch_.filePath(QStringLiteral("ext4.img"))});
        QCOMPARE(QJsonDocument::fromJson(info.out).object()[QStringLiteral("filesystem")].toString(), QStringLiteral("ext4"));
        ASC_REQUIRE_TOOL(QStringLiteral("mkfs.ntfs"));
        ASC_REQUIRE_TOOL(QStringLiteral("ntfscp"));
        {
            // NTFS made by mkfs.ntfs, a file put in by ntfscp (ntfs-3g's tools work on the image, no mount).
            auto ntfs = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"),
                                                              QStringLiteral("set -e; cd \"$1\"; truncate -s 16M ntfs.img; mkfs.ntfs -q -F ntfs.img; ntfscp -q ntfs.img content/big.bin big.bin"),
                                                              QStringLiteral("sh"), scratch_.path()});
            QVERIFY2(ntfs.exitCode == 0, ntfs.err.constData());
            const QString spec = scratch_.filePath(QStringLiteral("ntfs.img"));
            auto listed = test::runCli({QStringLiteral("ls"), spec});
            QCOMPARE(listed.exitCode, 0);
            QVERIFY2(listed.out.contains("big.bin"), listed.out.constData());
            // The names ntfs-3g shows (ntfsls): none of NTFS's own metadata files ($MFT, $Bitmap, ...).
            auto reference = test::run(QStringLiteral("ntfsls"), {QStringLiteral("-R"), spec});
            QByteArrayList ours, theirs;
            for (const QByteArray &line : listed.out.split('\n'))
                if (!line.isEmpty())
                    ours << line.mid(line.lastIndexOf(' ') + 1);
            for (const QByteArray &line : reference.out.split('\n'))
                if (!line.isEmpty() && !line.endsWith(':'))
                    theirs << line.trimmed();
            QCOMPARE(ours, theirs);
            auto cat = test::runCli({QStringLiteral("cat"), spec + QStringLiteral("!/big.bin")});
            QVERIFY2(cat.exitCode == 0, cat.err.constData());
            QVERIFY(cat.out == big);
            auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), spec});
            QCOMPARE(QJsonDocument::fromJson(info.out).object()[QStringLiteral("filesystem")].toString(), QStringLiteral("ntfs"));
        }
        ASC_REQUIRE_TOOL(QStringLiteral("mkfs.exfat"));
        {
            // exFAT (no tool fills one without mounting it): it opens, and the entries TSK makes up
            // for its allocation bitmap and upcase table are not shown as files.
            auto exfat = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"),
                                                               QStringLiteral("set -e; cd \"$1\"; truncate -s 16M exfat.img; mkfs.exfat -L LABEL exfat.img"), QStringLiteral("sh"), scratch_.path()});
            QVERIFY2(exfat.exitCode == 0, exfat.err.constData());
            const QString spec = scratch_.filePath(QStringLiteral("exfat.img"));
            auto listed = test::runCli({QStringLiteral("ls"), spec});
            QVERIFY2(listed.exitCode == 0, listed.err.constData());
            QVERIFY2(listed.out.isEmpty(), listed.out.constData());
            auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), spec});
            QCOMPARE(QJsonDocument::fromJson(info.out).object()[QStringLiteral("filesystem")].toString(), QStringLiteral("exfat"));
        }
    }

    void cyclicFatChain()
    {
        // A FAT16 file whose cluster chain points back at itself: reading it ends (with the bytes
        // its size allows, or an error naming the file) within seconds, in bounded memory.
        ASC_REQUIRE_TOOL(QStringLiteral("mkfs.vfat"));
        ASC_REQUIRE_TOOL(QStringLiteral("mcopy"));
        const QString image = scratch_.filePath(QStringLiteral("fat16-loop.img"));
        test::writeFile(scratch_, QStringLiteral("loop-content.bin"), test::seededBytes(300000, 4));
        auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"),
                                                          QStringLiteral("set -e; cd \"$1\"; rm -f fat16-loop.img; mkfs.vfat -F 16 -C fat16-loop.img 16384 >/dev/null; mcopy -i fat16-loop.img loop-content.bin ::/big.bin"),
                                                          QStringLiteral("sh"), scratch_.path()});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        QFile f(image);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        const auto u16 = [&](qsizetype at) { return int(quint8(bytes[at])) | int(quint8(bytes[at + 1])) << 8; };
        const qsizetype fat = qsizetype(u16(11)) * u16(14);
        const qsizetype fatBytes = qsizetype(u16(11)) * u16(22);
        QCOMPARE(u16(fat + 4), 3); // the file starts at cluster 2 and goes on to 3
        for (int copy = 0; copy < int(quint8(bytes[16])); ++copy) {
            bytes[fat + copy * fatBytes + 4] = 2; // cluster 2 -> cluster 2
            bytes[fat + copy * fatBytes + 5] = 0;
        }
        f.seek(0);
        f.write(bytes);
        f.close();
        const qint64 imageSize = QFileInfo(image).size();
        for (const QString &command : {QStringLiteral("cat"), QStringLiteral("extract")}) {
            const QString args = command == QLatin1String("cat") ? QStringLiteral("cat \"$1!/big.bin\" > /dev/null")
                                                                 : QStringLiteral("extract \"$1\" -C \"$1.out\" > /dev/null");
            auto r = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("ulimit -v 1048576; exec \"$0\" ") + args, QStringLiteral(CLI_PATH), image}, 30000);
            QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(command + QStringLiteral(": exit %1 ").arg(r.exitCode) + QString::fromUtf8(r.err)));
            if (r.exitCode == 1)
                QVERIFY2(r.err.contains("fat16-loop.img"), r.err.constData());
            // The chain is followed once: reads and output bounded by the image, not endless.
            QVERIFY2(r.work.rchar >= 0 && r.work.rchar < 4 * imageSize, qPrintable(command + QStringLiteral(" read %1").arg(r.work.rchar)));
            QVERIFY2(r.work.wchar >= 0 && r.work.wchar < 4 * imageSize, qPrintable(command + QStringLiteral(" wrote %1").arg(r.work.wchar)));
        }
    }

    void extentTreeLoop()
    {
        // An ext4 file with an extent tree one level deep (40 separate runs); its leaf is turned
        // into an index node whose entries point back at itself: reading it fails with a message
        // naming the file, no crash, no hang.
        ASC_REQUIRE_TOOL(QStringLiteral("mkfs.ext4"));
        ASC_REQUIRE_TOOL(QStringLiteral("debugfs"));
        QDir().mkpath(scratch_.filePath(QStringLiteral("frag")));
        {
            QFile frag(scratch_.filePath(QStringLiteral("frag/frag.bin")));
            QVERIFY(frag.open(QIODevice::WriteOnly));
            for (int i = 0; i < 40; ++i) {
                QVERIFY(frag.seek(qint64(i) * 65536));
                frag.write(test::seededBytes(4096, quint32(i)));
            }
        }
        const QString image = scratch_.filePath(QStringLiteral("extent-loop.img"));
        auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"),
                                                          QStringLiteral("set -e; cd \"$1\"; rm -f extent-loop.img; mkfs.ext4 -q -F -b 1024 -d frag extent-loop.img 8M; "
                                                                         "debugfs -R 'stat /frag.bin' extent-loop.img 2>/dev/null"),
                                                          QStringLiteral("sh"), scratch_.path()});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("\\(ETB0\\):(\\d+)")).match(QString::fromUtf8(made.out));
        QVERIFY2(m.hasMatch(), made.out.constData());
        const qsizetype leaf = m.captured(1).toLongLong() * 1024;
        QFile f(image);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray bytes = f.readAll();
        QCOMPARE(quint8(bytes[leaf]), quint8(0x0a)); // extent header magic 0xF30A
        QCOMPARE(quint8(bytes[leaf + 1]), quint8(0xf3));
        const int entries = int(quint8(bytes[leaf + 2])) | int(quint8(bytes[leaf + 3])) << 8;
        bytes[leaf + 6] = 1; // depth 1: an index node
        for (int i = 0; i < entries; ++i) {
            const qsizetype entry = leaf + 12 + 12 * i;
            const quint32 self = quint32(leaf / 1024);
            for (int k = 0; k < 4; ++k)
                bytes[entry + 4 + k] = char(self >> (8 * k)); // ei_leaf: this very block
            for (int k = 8; k < 12; ++k)
                bytes[entry + k] = 0;
        }
        f.seek(0);
        f.write(bytes);
        f.close();
        auto r = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("ulimit -v 1048576; exec \"$0\" cat \"$1!/frag.bin\" > /dev/null"), QStringLiteral(CLI_PATH), image}, 30000);
        QVERIFY2(r.exitCode == 1, qPrintable(QStringLiteral("exit %1 ").arg(r.exitCode) + QString::fromUtf8(r.err)));
        QVERIFY2(r.err.contains("extent-loop.img!/frag.bin") && r.err.contains("offset"), r.err.constData());
        QVERIFY2(r.work.rchar >= 0 && r.work.rchar < 4 * QFileInfo(image).size(), qPrintable(QString::number(r.work.rchar)));
        QCOMPARE(test::runCli({QStringLiteral("ls"), image}).exitCode, 0); // the listing itself is fine
    }

    void corruptedFilesystems()
    {
        const QString ext = scratch_.filePath(QStringLiteral("ext4.img"));
        QVERIFY2(QFile::exists(ext), "madeByRealTools makes the filesystems this test damages: it failed or did not run");
        QFile f(ext);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        std::vector<std::pair<QString, QByteArray>> variants;
        variants.push_back({QStringLiteral("truncated.img"), bytes.left(bytes.size() / 5)});
        QByteArray superblock = bytes;
        for (int i = 1024; i < 1024 + 200; ++i)
            if (i < 1080 || i > 1081) // keep the magic so it is still probed as ext
                superblock[i] = char(0xff);
        variants.push_back({QStringLiteral("bad-superblock.img"), superblock});
        QByteArray inodes = bytes;
        for (qsizetype i = 8192; i < 64 * 1024; i += 7)
            inodes[i] = char(inodes[i] ^ 0x5a);
        variants.push_back({QStringLiteral("scribbled.img"), inodes});
        for (const auto &[name, content] : variants) {
            const QString path = test::writeFile(scratch_, name, content);
            auto r = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("ulimit -v 1048576; exec \"$0\" ls \"$1\""), QStringLiteral(CLI_PATH), path}, 30000);
            QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(name));
            if (r.exitCode == 1)
                QVERIFY2(r.err.contains(name.toUtf8()), r.err.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestFilesystems)
#include "tst_filesystems.moc"
