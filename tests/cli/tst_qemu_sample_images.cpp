// SPDX-License-Identifier: MIT
// qemu's sample images (tests/data/thirdparty/qemu: made by the native tools — Virtual PC, Hyper-V,
// Disk2vhd, VMware, Parallels, Bochs, cloop, hdiutil), compared with qemu-img: the virtual size as
// `qemu-img info` says (Virtual PC sizes a VHD by its CHS geometry, Hyper-V by the footer: qemu's
// iotest 146), the bytes as `qemu-img convert -O raw` writes them, and the formats we do not read
// refused by name — never their own bytes given as the virtual disk — unless `cat --raw`.

#include "test_files.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace asc;

namespace {

const QString kImages = QStringLiteral(TEST_DATA_DIR "/thirdparty/qemu");

} // namespace

class TestQemuSampleImages : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString unpack(const QString &name)
    {
        const QString out = dir_.filePath(name.chopped(4));
        auto r = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("bzip2 -dc \"$0\" > \"$1\""), kImages + QLatin1Char('/') + name, out});
        return r.exitCode == 0 ? out : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("qemu-img"));
        ASC_REQUIRE_TOOL(QStringLiteral("bzip2"));
    }

    void readAsQemuReadsThem_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("refusedAs"); // empty: read
        QTest::newRow("Virtual PC, CHS-sized") << QStringLiteral("virtualpc-dynamic.vhd.bz2") << QString();
        QTest::newRow("Hyper-V 2012 R2 VHD") << QStringLiteral("hyperv2012r2-dynamic.vhd.bz2") << QString();
        QTest::newRow("Disk2vhd VHD") << QStringLiteral("d2v-zerofilled.vhd.bz2") << QString();
        QTest::newRow("Hyper-V VHDX") << QStringLiteral("iotest-dynamic-1G.vhdx.bz2") << QString();
        QTest::newRow("Disk2vhd VHDX") << QStringLiteral("test-disk2vhd.vhdx.bz2") << QString();
        QTest::newRow("VMware VMDK version 3") << QStringLiteral("iotest-version3.vmdk.bz2") << QString();
        QTest::newRow("raw MBR") << QStringLiteral("grub_mbr.raw.bz2") << QString();
        QTest::newRow("Parallels v1") << QStringLiteral("parallels-v1.bz2") << QStringLiteral("Parallels");
        QTest::newRow("Parallels v2") << QStringLiteral("parallels-v2.bz2") << QStringLiteral("Parallels");
        QTest::newRow("Parallels with bitmap") << QStringLiteral("parallels-with-bitmap.bz2") << QStringLiteral("Parallels");
        QTest::newRow("Bochs") << QStringLiteral("empty.bochs.bz2") << QStringLiteral("Bochs");
        QTest::newRow("cloop") << QStringLiteral("simple-pattern.cloop.bz2") << QStringLiteral("cloop");
        QTest::newRow("DMG") << QStringLiteral("simple-dmg.dmg.bz2") << QStringLiteral("DMG");
        QTest::newRow("VHDX with a dirty log") << QStringLiteral("iotest-dirtylog-10G-4M.vhdx.bz2") << QStringLiteral("log is not empty");
    }

    void readAsQemuReadsThem()
    {
        QFETCH(QString, name);
        QFETCH(QString, refusedAs);
        const QString image = unpack(name);
        QVERIFY(!image.isEmpty());
        if (!refusedAs.isEmpty()) {
            auto cat = test::runCli({QStringLiteral("cat"), image});
            QCOMPARE(cat.exitCode, 1);
            QCOMPARE(cat.out.size(), 0);
            QVERIFY2(cat.err.contains(refusedAs.toUtf8()), cat.err.constData());
            auto raw = test::runCli({QStringLiteral("cat"), QStringLiteral("--raw"), image});
            QCOMPARE(raw.exitCode, 0);
            QCOMPARE(test::sha256(raw.out), test::sha256File(image));
            return;
        }
        auto qemu = test::run(QStringLiteral("qemu-img"), {QStringLiteral("info"), QStringLiteral("--output=json"), image});
        QVERIFY2(qemu.exitCode == 0, qemu.err.constData());
        const double qemuSize = QJsonDocument::fromJson(qemu.out).object()[QStringLiteral("virtual-size")].toDouble();
        auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), image});
        QVERIFY2(info.exitCode == 0, info.err.constData());
        const QJsonObject ours = QJsonDocument::fromJson(info.out).object();
        const double ourSize = ours.contains(QStringLiteral("virtual_size")) ? ours[QStringLiteral("virtual_size")].toDouble() : ours[QStringLiteral("size")].toDouble();
        QCOMPARE(qint64(ourSize), qint64(qemuSize));
        if (qemuSize > 300.0 * (1 << 20))
            return; // the 127 GiB Virtual PC disks: their sizes are the point, not 127 GiB of zeros
        const QString raw = dir_.filePath(QStringLiteral("qemu.raw"));
        auto converted = test::run(QStringLiteral("qemu-img"), {QStringLiteral("convert"), QStringLiteral("-O"), QStringLiteral("raw"), image, raw});
        QVERIFY2(converted.exitCode == 0, converted.err.constData());
        auto cat = test::runCli({QStringLiteral("cat"), image});
        QVERIFY2(cat.exitCode == 0, cat.err.constData());
        QCOMPARE(test::sha256(cat.out), test::sha256File(raw));
    }
};

QTEST_GUILESS_MAIN(TestQemuSampleImages)
#include "tst_qemu_sample_images.moc"
