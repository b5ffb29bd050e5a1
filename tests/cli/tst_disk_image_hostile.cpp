// SPDX-License-Identifier: MIT
// Corrupt disk images: truncated at many offsets, L1/L2 tables past the end of the file, absurd
// refcount order, cluster_bits 31, a 2^62-byte virtual size, broken compressed data, damaged
// partition tables. Each ends with exit 0 or 1 and a message naming the file, within a second or
// so, in bounded memory (run under a 1 GiB address-space limit), never a crash.

#include "test_files.h"

#include <QFile>
#include <QTest>

using namespace asc;

class TestDiskImageHostile : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QByteArray plain_;
    QByteArray compressed_;

    struct Outcome {
        int exitCode;
        QByteArray err;
        test::Work work;
    };

    // Reads the whole virtual disk under a 1 GiB address-space limit.
    Outcome catLimited(const QString &image)
    {
        auto r = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("ulimit -v 1048576; exec \"$0\" cat \"$1\" > /dev/null"), QStringLiteral(CLI_PATH), image}, 30000);
        return {r.exitCode, r.err, r.work};
    }

    QString patched(const QByteArray &image, const QString &name, qsizetype offset, const QByteArray &bytes)
    {
        QByteArray copy = image;
        copy.replace(offset, bytes.size(), bytes);
        return test::writeFile(dir_, name, copy);
    }

    static QByteArray be32(quint32 v)
    {
        QByteArray b(4, 0);
        for (int i = 0; i < 4; ++i)
            b[i] = char(v >> (24 - 8 * i));
        return b;
    }
    static QByteArray be64(quint64 v)
    {
        QByteArray b(8, 0);
        for (int i = 0; i < 8; ++i)
            b[i] = char(v >> (56 - 8 * i));
        return b;
    }

    void expectClean(const Outcome &o, const QString &image, bool mustFail)
    {
        QVERIFY2(o.exitCode == 0 || o.exitCode == 1, qPrintable(QStringLiteral("%1: exit %2 %3").arg(image).arg(o.exitCode).arg(QString::fromUtf8(o.err))));
        if (mustFail)
            QVERIFY2(o.exitCode == 1, qPrintable(image));
        if (o.exitCode == 1)
            QVERIFY2(o.err.startsWith("archivescope-cli: ") && o.err.contains(image.toUtf8()), o.err.constData());
        // Work bounded by what the image holds (a 5 MiB disk): no runaway reads, no endless output.
        QVERIFY2(o.work.rchar >= 0 && o.work.rchar < (64 << 20), qPrintable(QStringLiteral("%1 read %2 bytes").arg(image).arg(o.work.rchar)));
        QVERIFY2(o.work.wchar >= 0 && o.work.wchar < (64 << 20), qPrintable(QStringLiteral("%1 wrote %2 bytes").arg(image).arg(o.work.wchar)));
    }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("qemu-img"));
        QByteArray disk = test::seededBytes(2 << 20, 3) + QByteArray(2 << 20, '\0') + QByteArray("text ").repeated(200000);
        const QString raw = test::writeFile(dir_, QStringLiteral("disk.raw"), disk);
        for (const auto &[name, options] : {std::pair{QStringLiteral("plain.qcow2"), QStringLiteral("")}, std::pair{QStringLiteral("zlib.qcow2"), QStringLiteral("-c")}}) {
            auto r = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("qemu-img convert -f raw -O qcow2 %1 \"$1\" \"$2\"").arg(options),
                                                           QStringLiteral("sh"), raw, dir_.filePath(name)});
            QCOMPARE(r.exitCode, 0);
        }
        QFile a(dir_.filePath(QStringLiteral("plain.qcow2")));
        QFile b(dir_.filePath(QStringLiteral("zlib.qcow2")));
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        plain_ = a.readAll();
        compressed_ = b.readAll();
    }

    void truncated()
    {
        for (const QByteArray *image : {&plain_, &compressed_}) {
            for (qsizetype cut : {qsizetype(0), qsizetype(3), qsizetype(50), qsizetype(100), qsizetype(4000), qsizetype(65536), qsizetype(200000),
                                  image->size() / 2, image->size() - 1}) {
                const QString path = test::writeFile(dir_, QStringLiteral("cut-%1.qcow2").arg(cut), image->left(cut));
                const Outcome o = catLimited(path);
                // Under 8 bytes there is no qcow2 magic: the file is plain data and cat succeeds.
                expectClean(o, path, cut >= 72 && cut < image->size() - 1 && cut < 300000);
            }
        }
    }

    void headerFields()
    {
        // l1_table_offset far past EOF, cluster_bits 31, refcount_order 99, size 2^62, version 9.
        expectClean(catLimited(patched(plain_, QStringLiteral("l1-past-eof.qcow2"), 40, be64(1ULL << 40))), dir_.filePath(QStringLiteral("l1-past-eof.qcow2")), true);
        const Outcome bits = catLimited(patched(plain_, QStringLiteral("bits31.qcow2"), 20, be32(31)));
        expectClean(bits, dir_.filePath(QStringLiteral("bits31.qcow2")), true);
        QVERIFY(bits.err.contains("cluster size"));
        const Outcome refcount = catLimited(patched(plain_, QStringLiteral("refcount.qcow2"), 96, be32(99)));
        expectClean(refcount, dir_.filePath(QStringLiteral("refcount.qcow2")), true);
        QVERIFY(refcount.err.contains("entry width"));
        const Outcome huge = catLimited(patched(plain_, QStringLiteral("huge.qcow2"), 24, be64(1ULL << 62)));
        expectClean(huge, dir_.filePath(QStringLiteral("huge.qcow2")), true);
        QVERIFY(huge.err.contains("too small") || huge.err.contains("too large"));
        expectClean(catLimited(patched(plain_, QStringLiteral("version.qcow2"), 4, be32(9))), dir_.filePath(QStringLiteral("version.qcow2")), true);
        expectClean(catLimited(patched(plain_, QStringLiteral("l1size.qcow2"), 36, be32(0xFFFFFFFF))), dir_.filePath(QStringLiteral("l1size.qcow2")), true);
        expectClean(catLimited(patched(plain_, QStringLiteral("feature.qcow2"), 72, be64(1ULL << 40))), dir_.filePath(QStringLiteral("feature.qcow2")), true);
    }

    void tablesPointingAway()
    {
        // The first L1 entry: at l1_table_offset; make it point past EOF, then unaligned.
        quint64 l1 = 0;
        for (int i = 0; i < 8; ++i)
            l1 = (l1 << 8) | quint8(plain_[40 + i]);
        const Outcome past = catLimited(patched(plain_, QStringLiteral("l2-past-eof.qcow2"), qsizetype(l1), be64((1ULL << 63) | (1ULL << 40))));
        expectClean(past, dir_.filePath(QStringLiteral("l2-past-eof.qcow2")), true);
        QVERIFY2(past.err.contains("L2 table") && past.err.contains("offset"), past.err.constData());
        expectClean(catLimited(patched(plain_, QStringLiteral("l2-unaligned.qcow2"), qsizetype(l1), be64((1ULL << 63) | 0x10200))),
                    dir_.filePath(QStringLiteral("l2-unaligned.qcow2")), true);
    }

    void brokenCompressedData()
    {
        // Overwrite the middle of the compressed image (its data clusters) with garbage.
        QByteArray broken = compressed_;
        for (qsizetype i = compressed_.size() / 2; i < compressed_.size() / 2 + 4096; ++i)
            broken[i] = char(i * 31);
        const QString path = test::writeFile(dir_, QStringLiteral("broken-deflate.qcow2"), broken);
        expectClean(catLimited(path), path, false);
    }

    void randomFlips()
    {
        // Many single-byte corruptions of the metadata area: never a crash or a hang.
        for (int i = 0; i < 60; ++i) {
            QByteArray copy = compressed_;
            const qsizetype at = qsizetype((quint64(i) * 2654435761u) % quint64(std::min<qsizetype>(copy.size(), 1 << 20)));
            copy[at] = char(copy[at] ^ (1 << (i % 8)));
            const QString path = test::writeFile(dir_, QStringLiteral("flip.qcow2"), copy);
            expectClean(catLimited(path), path, false);
        }
    }

    // The other image formats made by qemu-img: truncated, flipped, and with their block tables
    // (VDI blocks map, VHD BAT, VHDX BAT, VMDK grain directory) pointing past the end of the file.
    void otherImageFormats()
    {
        const QString raw = dir_.filePath(QStringLiteral("disk.raw"));
        static const QByteArray vhdxBatGuid = QByteArray::fromHex("6677c22d23f600429d64115e9bfd4a08");
        auto le32 = [](quint32 v) { QByteArray b(4, 0); for (int i = 0; i < 4; ++i) b[i] = char(v >> (8 * i)); return b; };
        auto le64 = [](quint64 v) { QByteArray b(8, 0); for (int i = 0; i < 8; ++i) b[i] = char(v >> (8 * i)); return b; };
        auto readLe = [](const QByteArray &b, qsizetype at, int n) { quint64 v = 0; for (int i = n - 1; i >= 0; --i) v = (v << 8) | quint8(b[at + i]); return v; };
        auto readBe = [](const QByteArray &b, qsizetype at, int n) { quint64 v = 0; for (int i = 0; i < n; ++i) v = (v << 8) | quint8(b[at + i]); return v; };
        for (const QString &format : {QStringLiteral("vdi"), QStringLiteral("vpc"), QStringLiteral("vhdx"), QStringLiteral("vmdk")}) {
            const QString made = dir_.filePath(QStringLiteral("made.") + format);
            QCOMPARE(test::run(QStringLiteral("qemu-img"), {QStringLiteral("convert"), QStringLiteral("-f"), QStringLiteral("raw"), QStringLiteral("-O"), format, raw, made}).exitCode, 0);
            QFile f(made);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray image = f.readAll();
            const QString ext = QStringLiteral(".") + format;
            for (int cut : {1, 3, 5, 9, 17})
                expectClean(catLimited(test::writeFile(dir_, QStringLiteral("cut%1").arg(cut) + ext, image.left(image.size() * cut / 20))),
                            dir_.filePath(QStringLiteral("cut%1").arg(cut) + ext), false);
            for (int i = 0; i < 20; ++i) {
                QByteArray copy = image;
                const qsizetype at = qsizetype((quint64(i + 7) * 2654435761u) % quint64(std::min<qsizetype>(copy.size(), 1 << 20)));
                copy[at] = char(copy[at] ^ (1 << (i % 8)));
                const QString path = test::writeFile(dir_, QStringLiteral("flip") + ext, copy);
                expectClean(catLimited(path), path, false);
            }
            // The table entries of the first blocks, pointing far past the end.
            QByteArray broken = image;
            if (format == QLatin1String("vdi")) {
                const qsizetype map = qsizetype(readLe(image, 0x154, 4));
                for (int i = 0; i < 4; ++i)
                    broken.replace(map + 4 * i, 4, le32(0x7ffffff0u - quint32(i)));
            } else if (format == QLatin1String("vpc")) {
                const qsizetype dynamic = qsizetype(readBe(image, 16, 8));
                const qsizetype bat = qsizetype(readBe(image, dynamic + 16, 8));
                for (int i = 0; i < 4; ++i)
                    broken.replace(bat + 4 * i, 4, be32(0x7ffffff0u - quint32(i)));
            } else if (format == QLatin1String("vhdx")) {
                const qsizetype regions = 192 * 1024;
                QVERIFY(image.mid(regions, 4) == "regi");
                qsizetype bat = -1;
                for (quint64 e = 0; e < readLe(image, regions + 8, 4) && e < 16; ++e)
                    if (image.mid(regions + 16 + qsizetype(e) * 32, 16) == vhdxBatGuid)
                        bat = qsizetype(readLe(image, regions + 16 + qsizetype(e) * 32 + 16, 8));
                QVERIFY(bat > 0);
                for (int i = 0; i < 4; ++i) // fully present, at 1 TiB
                    broken.replace(bat + 8 * i, 8, le64(((quint64(1) << 40) + (quint64(i) << 20)) | 6));
            } else {
                QVERIFY(image.startsWith("KDMV"));
                const qsizetype gd = qsizetype(readLe(image, 56, 8) * 512);
                broken.replace(gd, 4, le32(0x7ffffff0u));
            }
            const QString path = test::writeFile(dir_, QStringLiteral("past-eof") + ext, broken);
            expectClean(catLimited(path), path, true);
        }
    }

    void damagedPartitionTables()
    {
        QByteArray mbr(1 << 20, '\0');
        mbr[510] = char(0x55);
        mbr[511] = char(0xAA);
        // An extended partition whose EBR chain points at itself.
        const char entry[16] = {0, 0, 0, 0, 0x05, 0, 0, 0, 8, 0, 0, 0, 0, 4, 0, 0};
        memcpy(mbr.data() + 446, entry, 16);
        mbr[8 * 512 + 510] = char(0x55);
        mbr[8 * 512 + 511] = char(0xAA);
        const char next[16] = {0, 0, 0, 0, 0x05, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0};
        memcpy(mbr.data() + 8 * 512 + 462, next, 16);
        const QString loop = test::writeFile(dir_, QStringLiteral("ebr-loop.raw"), mbr);
        auto r = test::runCli({QStringLiteral("ls"), loop}, 10000);
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("p1"));
        auto info = test::runCli({QStringLiteral("info"), loop}, 10000);
        QVERIFY2(info.out.contains("loops"), info.out.constData());
        // A GPT whose both headers fail their CRC: an error naming the file.
        QByteArray gpt(1 << 20, '\0');
        gpt[510] = char(0x55);
        gpt[511] = char(0xAA);
        gpt[446 + 4] = char(0xEE);
        memcpy(gpt.data() + 512, "EFI PART", 8);
        const QString bad = test::writeFile(dir_, QStringLiteral("bad-gpt.raw"), gpt);
        auto g = test::runCli({QStringLiteral("ls"), bad}, 10000);
        QCOMPARE(g.exitCode, 1);
        QVERIFY2(g.err.contains("bad-gpt.raw") && g.err.contains("GPT"), g.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestDiskImageHostile)
#include "tst_disk_image_hostile.moc"
