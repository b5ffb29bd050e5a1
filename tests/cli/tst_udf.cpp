// SPDX-License-Identifier: MIT
// Our UDF reader against 7-Zip and the files themselves: an ISO written by genisoimage -udf (UDF
// 1.02 beside ISO 9660, as Windows install ISOs are) lists as UDF with every name, size and type
// 7zz lists and every file's bytes; mkudffs volumes (UDF 1.02 and 2.01; 512-, 2048- and 4096-byte
// blocks) open with their label and revision; util-linux's blkid images (Windows 7, macOS 2.60
// with a metadata partition and 4 KiB sectors, Nero's Blu-ray VAT) open as their names say or are
// refused by name; damage is an error naming the file and offset.

#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace asc;

namespace {

QMap<QString, QString> info(const QString &spec)
{
    auto r = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), spec});
    QMap<QString, QString> out;
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    for (auto it = o.begin(); it != o.end(); ++it)
        out.insert(it.key(), it.value().isBool() ? (it.value().toBool() ? QStringLiteral("true") : QStringLiteral("false")) : it.value().toVariant().toString());
    return out;
}

} // namespace

class TestUdf : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString iso_;

private Q_SLOTS:
    void initTestCase()
    {
        for (const char *tool : {"genisoimage", "mkudffs", "7zz", "xz"})
            ASC_REQUIRE_TOOL(QString::fromLatin1(tool));
        QByteArray numbers;
        for (int i = 0; i < 60000; ++i)
            numbers += QByteArray::number(i) + '\n';
        test::writeFile(dir_, QStringLiteral("src/dir/numbers.txt"), numbers);
        test::writeFile(dir_, QStringLiteral("src/a.txt"), "small\n");
        test::writeFile(dir_, QStringLiteral("src/dir/sub/deep/one.bin"), QByteArray(5000, '\x7f'));
        test::writeFile(dir_, QStringLiteral("src/empty"), QByteArray());
        test::writeFile(dir_, QStringLiteral("src/Ünïcödé ñame.txt"), "names in UTF-16\n");
        iso_ = dir_.filePath(QStringLiteral("t.iso"));
        auto made = test::run(QStringLiteral("genisoimage"), {QStringLiteral("-quiet"), QStringLiteral("-udf"), QStringLiteral("-R"), QStringLiteral("-J"), QStringLiteral("-o"), iso_, dir_.filePath(QStringLiteral("src"))});
        QVERIFY2(made.exitCode == 0, made.err.constData());
    }

    void isoWithUdfListsAs7zip()
    {
        QCOMPARE(info(iso_).value(QStringLiteral("format")), QStringLiteral("udf"));
        QCOMPARE(info(iso_).value(QStringLiteral("udf_revision")), QStringLiteral("1.02"));
        auto ls = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), iso_});
        QCOMPARE(ls.exitCode, 0);
        QStringList ours;
        for (const QByteArray &line : ls.out.split('\n')) {
            if (line.isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            const bool dir = o[QStringLiteral("type")].toString() == QLatin1String("dir");
            ours << o[QStringLiteral("path")].toString() + (dir ? QStringLiteral("/") : QStringLiteral(" %1").arg(o[QStringLiteral("size")].toInteger()));
        }
        // 7zz l -slt: Path, Size (empty for folders), Folder = +/-.
        auto slt = test::run(QStringLiteral("7zz"), {QStringLiteral("l"), QStringLiteral("-slt"), iso_});
        QVERIFY2(slt.out.contains("Type = Udf"), slt.out.constData());
        QStringList theirs;
        // Records are separated by empty lines; the first is the archive's own.
        const QList<QByteArray> records = slt.out.mid(slt.out.indexOf("----------")).split('\n');
        QMap<QByteArray, QByteArray> record;
        auto flush = [&] {
            if (record.contains("Path"))
                theirs << QString::fromUtf8(record.value("Path")) +
                              (record.value("Folder") == "+" ? QStringLiteral("/") : QLatin1Char(' ') + QString::fromUtf8(record.value("Size").isEmpty() ? QByteArray("0") : record.value("Size")));
            record.clear();
        };
        for (const QByteArray &line : records) {
            if (line.isEmpty()) {
                flush();
                continue;
            }
            const qsizetype eq = line.indexOf(" = ");
            if (eq > 0)
                record.insert(line.left(eq), line.mid(eq + 3));
        }
        flush();
        ours.sort();
        theirs.sort();
        QCOMPARE(ours, theirs);
        for (const QString &file : {QStringLiteral("dir/numbers.txt"), QStringLiteral("a.txt"), QStringLiteral("dir/sub/deep/one.bin"), QStringLiteral("empty"), QStringLiteral("Ünïcödé ñame.txt")}) {
            auto cat = test::runCli({QStringLiteral("cat"), iso_ + QStringLiteral("!/") + file});
            QVERIFY2(cat.exitCode == 0, cat.err.constData());
            QCOMPARE(test::sha256(cat.out), test::sha256File(dir_.filePath(QStringLiteral("src/") + file)));
        }
    }

    void mkudffsVolumesOpen_data()
    {
        QTest::addColumn<QString>("revision");
        QTest::addColumn<int>("blockSize");
        for (const char *revision : {"1.02", "2.01"})
            for (int block : {512, 2048, 4096})
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(QLatin1String(revision)).arg(block))) << QString::fromLatin1(revision) << block;
    }

    void mkudffsVolumesOpen()
    {
        QFETCH(QString, revision);
        QFETCH(int, blockSize);
        const QString image = dir_.filePath(QStringLiteral("hd-%1-%2.img").arg(revision).arg(blockSize));
        QFile f(image);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(8 << 20));
        f.close();
        auto made = test::run(QStringLiteral("mkudffs"), {QStringLiteral("--media-type=hd"), QStringLiteral("--udfrev=") + revision, QStringLiteral("-b"), QString::number(blockSize),
                                                          QStringLiteral("--label=Vol") + QString::number(blockSize), image});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const auto facts = info(image);
        QCOMPARE(facts.value(QStringLiteral("format")), QStringLiteral("udf"));
        QCOMPARE(facts.value(QStringLiteral("udf_revision")), revision);
        QCOMPARE(facts.value(QStringLiteral("block_size")).toInt(), blockSize);
        QCOMPARE(facts.value(QStringLiteral("volume")), QStringLiteral("Vol") + QString::number(blockSize));
        auto ls = test::runCli({QStringLiteral("ls"), image});
        QCOMPARE(ls.exitCode, 0);
        QVERIFY2(ls.out.isEmpty() || ls.out.startsWith("d"), ls.out.constData()); // empty, or lost+found
    }

    void blkidImages_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("revision");
        QTest::addColumn<QString>("metadata");
        QTest::newRow("win7") << QStringLiteral("udf-hdd-win7") << QStringLiteral("2.01") << QStringLiteral("false");
        QTest::newRow("macosx 2.60 4096") << QStringLiteral("udf-hdd-macosx-2.60-4096") << QStringLiteral("2.60") << QStringLiteral("true");
        QTest::newRow("mkudffs 2.2") << QStringLiteral("udf-hdd-mkudffs-2.2") << QStringLiteral("2.01") << QStringLiteral("false");
        QTest::newRow("mkudfiso") << QStringLiteral("udf-cd-mkudfiso-20100208") << QStringLiteral("1.02") << QStringLiteral("false");
        QTest::newRow("udf") << QStringLiteral("udf") << QStringLiteral("1.02") << QStringLiteral("false");
        QTest::newRow("nero bd-r (VAT)") << QStringLiteral("udf-bdr-2.60-nero") << QString() << QString();
    }

    void blkidImages()
    {
        QFETCH(QString, name);
        QFETCH(QString, revision);
        QFETCH(QString, metadata);
        const QString image = dir_.filePath(name + QStringLiteral(".img"));
        auto unpacked = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("xz -dc \"$1\" > \"$2\""), QStringLiteral("sh"),
                                                              QStringLiteral(TEST_DATA_DIR "/thirdparty/util-linux/") + name + QStringLiteral(".img.xz"), image});
        QCOMPARE(unpacked.exitCode, 0);
        auto ls = test::runCli({QStringLiteral("ls"), image});
        if (revision.isEmpty()) {
            QCOMPARE(ls.exitCode, 1);
            QVERIFY2(ls.err.contains("virtual partition"), ls.err.constData());
            return;
        }
        QVERIFY2(ls.exitCode == 0, ls.err.constData());
        const auto facts = info(image);
        QCOMPARE(facts.value(QStringLiteral("format")), QStringLiteral("udf"));
        QCOMPARE(facts.value(QStringLiteral("udf_revision")), revision);
        QCOMPARE(facts.value(QStringLiteral("metadata_partition")), metadata);
    }

    // A damaged file entry, and an image cut short: errors naming the file, never other bytes.
    void damageIsAnError()
    {
        QFile in(iso_);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray bytes = in.readAll();
        // The file entry of a.txt: its tag (id 261) comes with the name's ICB; flip a byte of
        // every File Entry's tag checksum, so no file can be read.
        QByteArray damaged = bytes;
        int flipped = 0;
        for (qsizetype at = 0; at + 16 <= damaged.size(); at += 2048) {
            if (uint8_t(damaged[at]) == 0x05 && uint8_t(damaged[at + 1]) == 0x01) { // tag 261
                damaged[at + 4] = char(damaged[at + 4] ^ 0x01);
                ++flipped;
            }
        }
        QVERIFY(flipped > 3);
        const QString bad = dir_.filePath(QStringLiteral("damaged.iso"));
        QFile out(bad);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(damaged);
        out.close();
        auto ls = test::runCli({QStringLiteral("ls"), bad});
        QVERIFY(ls.exitCode != 0);
        QVERIFY2(ls.err.contains("damaged.iso") && ls.err.contains("UDF"), ls.err.constData());
        // Cut inside numbers.txt's data: its read is an error, never zeros.
        const QString cut = dir_.filePath(QStringLiteral("cut.iso"));
        const qsizetype numbersAt = bytes.indexOf("59990\n");
        QVERIFY(numbersAt > 0);
        QFile c(cut);
        QVERIFY(c.open(QIODevice::WriteOnly));
        c.write(bytes.left(numbersAt - 10000));
        c.close();
        auto cat = test::runCli({QStringLiteral("cat"), cut + QStringLiteral("!/dir/numbers.txt")});
        QCOMPARE(cat.exitCode, 1);
        QVERIFY2(cat.err.contains("cut.iso"), cat.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestUdf)
#include "tst_udf.moc"
