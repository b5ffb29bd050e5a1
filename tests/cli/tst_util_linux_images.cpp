// SPDX-License-Identifier: MIT
// util-linux's blkid test images (tests/data/thirdparty/util-linux, with the NAME.blkid values
// blkid's own test expects): every image of a filesystem or volume we claim is read as its type,
// label and UUID say, with nothing listed that is not a file and nothing called what it is not: a
// FAT volume with no partition table is not partition p1, NTFS's and HFS+'s metadata files ($MFT,
// $CatalogFile, ...) are not entries, an LVM PV names its UUID, UFS2 is recognised, UDF volumes
// read with the revision and label blkid reads. What we do not read yet is listed with why in
// README's known differences and below.

#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace asc;

namespace {

const QString kImages = QStringLiteral(TEST_DATA_DIR "/thirdparty/util-linux");

// Images whose reading differs from the reference on purpose or for now (README says the same).
const char *const kKnown[][2] = {
    {"ufs", "The Sleuth Kit finds the UFS2 superblock but cannot read this image's root directory"},
    {"udf-bdr-2.60-nero", "a UDF virtual partition (VAT, a BD-R written incrementally) is refused by name (tst_udf checks the words)"},
};

QMap<QString, QString> blkid(const QString &name)
{
    QMap<QString, QString> values;
    QFile f(kImages + QLatin1Char('/') + name + QStringLiteral(".blkid"));
    if (f.open(QIODevice::ReadOnly))
        for (const QByteArray &line : f.readAll().split('\n'))
            if (const qsizetype eq = line.indexOf('='); eq > 0)
                values.insert(QString::fromUtf8(line.left(eq)), QString::fromUtf8(line.mid(eq + 1)));
    return values;
}

} // namespace

class TestUtilLinuxImages : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() { ASC_REQUIRE_TOOL(QStringLiteral("xz")); }

    void readsAsBlkidSays_data()
    {
        QTest::addColumn<QString>("name");
        const QStringList images = QDir(kImages).entryList({QStringLiteral("*.img.xz")}, QDir::Files, QDir::Name);
        QVERIFY(images.size() >= 10);
        for (const QString &image : images)
            QTest::newRow(qPrintable(image)) << image.chopped(7);
    }

    void readsAsBlkidSays()
    {
        QFETCH(QString, name);
        for (const auto &known : kKnown)
            if (name == QLatin1String(known[0]))
                QSKIP(known[1]);
        const QString image = dir_.filePath(name + QStringLiteral(".img"));
        auto unpacked = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("xz -dc \"$0\" > \"$1\""), kImages + QLatin1Char('/') + name + QStringLiteral(".img.xz"), image});
        QVERIFY2(unpacked.exitCode == 0, unpacked.err.constData());
        const auto expected = blkid(name);
        const QString type = expected.value(QStringLiteral("ID_FS_TYPE"));
        QVERIFY2(!type.isEmpty(), qPrintable(name));
        auto ls = test::runCli({QStringLiteral("ls"), image});
        auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), image});
        const QJsonObject facts = QJsonDocument::fromJson(info.out).object();
        if (type == QLatin1String("LVM2_member")) {
            // A PV with no volume group: said, naming the UUID blkid reads.
            QCOMPARE(ls.exitCode, 1);
            QVERIFY2(ls.err.contains(expected.value(QStringLiteral("ID_FS_UUID")).toUtf8()), ls.err.constData());
            return;
        }
        QVERIFY2(ls.exitCode == 0, ls.err.constData());
        QVERIFY2(!ls.out.contains(" p1  ["), ls.out.constData()); // a volume, not a partitioned disk
        QVERIFY2(!ls.out.contains(" $"), ls.out.constData()); // no metadata files
        if (type == QLatin1String("xfs")) {
            QCOMPARE(facts[QStringLiteral("reader")].toString(), QStringLiteral("ArchiveScope's XFS reader"));
            QCOMPARE(facts[QStringLiteral("label")].toString(), expected.value(QStringLiteral("ID_FS_LABEL")));
            QCOMPARE(facts[QStringLiteral("uuid")].toString(), expected.value(QStringLiteral("ID_FS_UUID")));
        } else if (type == QLatin1String("udf")) {
            QCOMPARE(facts[QStringLiteral("reader")].toString(), QStringLiteral("ArchiveScope's UDF reader"));
            QCOMPARE(facts[QStringLiteral("udf_revision")].toString(), expected.value(QStringLiteral("ID_FS_VERSION")));
            // blkid's udev names write a space as '_'.
            QCOMPARE(facts[QStringLiteral("volume")].toString().replace(QLatin1Char(' '), QLatin1Char('_')), expected.value(QStringLiteral("ID_FS_LABEL")));
        } else if (type == QLatin1String("vfat")) {
            QVERIFY2(facts[QStringLiteral("filesystem")].toString().startsWith(QLatin1String("fat")), info.out.constData());
        } else if (type == QLatin1String("ntfs") || type == QLatin1String("hfsplus")) {
            QCOMPARE(facts[QStringLiteral("filesystem")].toString(), type == QLatin1String("ntfs") ? QStringLiteral("ntfs") : QStringLiteral("hfsp"));
        }
    }
};

QTEST_GUILESS_MAIN(TestUtilLinuxImages)
#include "tst_util_linux_images.moc"
