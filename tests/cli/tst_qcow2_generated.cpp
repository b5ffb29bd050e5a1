// SPDX-License-Identifier: MIT
// qcow2 images made at test time by qemu-img and qemu-io for every variant the reader supports —
// versions, cluster sizes 512 B..2 MiB, zlib and zstd compression, extended L2, lazy refcounts,
// refcount widths, backing chains (qcow2 and raw) with changed, zeroed and discarded clusters —
// read byte-exact against `qemu-img convert -O raw`, mapped like `qemu-img map`. Backing-file
// security: relative names resolve against the image's folder, names leaving it need
// --allow-backing, loops and chains deeper than 64 are refused.

#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace asc;

class TestQcow2Generated : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString raw_;

    QString path(const QString &name) const { return dir_.filePath(name); }

    void sh(const QString &script)
    {
        auto r = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("set -e; cd \"$1\"; ") + script, QStringLiteral("sh"), dir_.path()}, 300000);
        QVERIFY2(r.exitCode == 0, (script.toUtf8() + "\n" + r.err).constData());
    }

    QByteArray catHash(const QStringList &extra, const QString &spec)
    {
        const QString out = path(QStringLiteral("cat.out"));
        QStringList args = extra;
        args << QStringLiteral("cat") << spec;
        auto r = test::run(QStringLiteral("/bin/sh"), QStringList{QStringLiteral("-c"), QStringLiteral("\"$0\" \"$@\" > ") + out, QStringLiteral(CLI_PATH)} + args, 120000);
        if (r.exitCode != 0)
            return "exit " + QByteArray::number(r.exitCode) + ": " + r.err;
        return test::sha256File(out);
    }

    QByteArray qemuRawHash(const QString &image, const QString &format = {})
    {
        const QString out = path(QStringLiteral("expect.raw"));
        QStringList args{QStringLiteral("convert"), QStringLiteral("-O"), QStringLiteral("raw"), image, out};
        if (!format.isEmpty())
            args << QStringLiteral("-f") << format; // a fixed VHD has no magic at its start: qemu would take it for raw
        auto r = test::run(QStringLiteral("qemu-img"), args);
        if (r.exitCode != 0)
            return "qemu-img failed: " + r.err;
        return test::sha256File(out);
    }

    void compareMaps(const QString &image)
    {
        auto ours = test::runCli({QStringLiteral("map"), QStringLiteral("--json"), image});
        QVERIFY2(ours.exitCode == 0, ours.err.constData());
        auto qemu = test::run(QStringLiteral("qemu-img"), {QStringLiteral("map"), QStringLiteral("--output=json"), image});
        QCOMPARE(qemu.exitCode, 0);
        QJsonArray a = QJsonDocument::fromJson(ours.out).array();
        for (qsizetype i = 0; i < a.size(); ++i) {
            QJsonObject o = a[i].toObject();
            o.remove(QStringLiteral("compressed"));
            a[i] = o;
        }
        QCOMPARE(a, QJsonDocument::fromJson(qemu.out).array());
    }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("qemu-img"));
        ASC_REQUIRE_TOOL(QStringLiteral("qemu-io"));
        // 12 MiB: 64 KiB blocks of random data, text and zeros (about 30/30/40), plus odd-sized runs.
        QByteArray disk;
        const QByteArray text = QByteArray("The quick brown fox jumps over the lazy dog. 0123456789\n").repeated(1200);
        for (int block = 0; block < 192; ++block) {
            switch (block % 10) {
            case 0:
            case 3:
            case 7: disk += test::seededBytes(65536, quint32(block)); break;
            case 1:
            case 5:
            case 8: disk += text.left(65536); break;
            default: disk += QByteArray(65536, '\0'); break;
            }
        }
        disk.replace(100000, 3333, test::seededBytes(3333, 9999)); // straddles cluster boundaries
        raw_ = test::writeFile(dir_, QStringLiteral("base.raw"), disk);
    }

    void variants_data()
    {
        QTest::addColumn<QString>("options");
        QTest::newRow("v2 (compat 0.10)") << QStringLiteral("-o compat=0.10");
        QTest::newRow("v3 (compat 1.1)") << QStringLiteral("-o compat=1.1");
        QTest::newRow("512 B clusters") << QStringLiteral("-o cluster_size=512");
        QTest::newRow("4 KiB clusters") << QStringLiteral("-o cluster_size=4096");
        QTest::newRow("2 MiB clusters") << QStringLiteral("-o cluster_size=2M");
        QTest::newRow("zlib compressed") << QStringLiteral("-c");
        QTest::newRow("zlib compressed, 512 B clusters") << QStringLiteral("-c -o cluster_size=512");
        QTest::newRow("zlib compressed, 2 MiB clusters") << QStringLiteral("-c -o cluster_size=2M");
        QTest::newRow("zstd compressed") << QStringLiteral("-c -o compression_type=zstd");
        QTest::newRow("zstd compressed, 4 KiB clusters") << QStringLiteral("-c -o compression_type=zstd,cluster_size=4096");
        QTest::newRow("extended L2") << QStringLiteral("-o extended_l2=on");
        QTest::newRow("extended L2, 2 MiB clusters") << QStringLiteral("-o extended_l2=on,cluster_size=2M");
        QTest::newRow("lazy refcounts") << QStringLiteral("-o lazy_refcounts=on");
        QTest::newRow("1-bit refcounts") << QStringLiteral("-o refcount_bits=1");
        QTest::newRow("64-bit refcounts") << QStringLiteral("-o refcount_bits=64");
        QTest::newRow("v2 compressed") << QStringLiteral("-c -o compat=0.10");
    }

    void variants()
    {
        QFETCH(QString, options);
        sh(QStringLiteral("qemu-img convert -f raw -O qcow2 %1 base.raw variant.qcow2").arg(options));
        QCOMPARE(catHash({}, path(QStringLiteral("variant.qcow2"))), test::sha256File(raw_));
        compareMaps(path(QStringLiteral("variant.qcow2")));
    }

    // The other image formats qemu-img writes, read by our own readers.
    void otherFormats_data()
    {
        QTest::addColumn<QString>("options");
        // Whether `map --json` must equal qemu-img's. Not for: descriptor files' extents; fixed and
        // static images (qemu looks for holes in the host file too); VHDX (qemu has no block status
        // for it and reports one data extent).
        QTest::addColumn<bool>("sameMapAsQemu");
        QTest::newRow("vmdk monolithicSparse") << QStringLiteral("-O vmdk") << true;
        QTest::newRow("vmdk streamOptimized") << QStringLiteral("-O vmdk -o subformat=streamOptimized") << true;
        QTest::newRow("vmdk descriptor + flat extent") << QStringLiteral("-O vmdk -o subformat=monolithicFlat") << false;
        QTest::newRow("vmdk descriptor + 2 GiB sparse extents") << QStringLiteral("-O vmdk -o subformat=twoGbMaxExtentSparse") << false;
        QTest::newRow("vmdk descriptor + 2 GiB flat extents") << QStringLiteral("-O vmdk -o subformat=twoGbMaxExtentFlat") << false;
        QTest::newRow("vdi dynamic") << QStringLiteral("-O vdi") << true;
        QTest::newRow("vdi static") << QStringLiteral("-O vdi -o static=on") << false;
        QTest::newRow("vhd dynamic") << QStringLiteral("-O vpc") << true;
        QTest::newRow("vhd fixed") << QStringLiteral("-O vpc -o subformat=fixed") << false;
        QTest::newRow("vhdx dynamic") << QStringLiteral("-O vhdx") << false;
        QTest::newRow("vhdx fixed") << QStringLiteral("-O vhdx -o subformat=fixed") << false;
    }

    void otherFormats()
    {
        QFETCH(QString, options);
        sh(QStringLiteral("rm -f other*.img && qemu-img convert -f raw %1 base.raw other.img").arg(options));
        const QString image = path(QStringLiteral("other.img"));
        const QString format = options.section(QLatin1Char(' '), 1, 1);
        QCOMPARE(catHash({}, image), qemuRawHash(image, format));
        auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), image});
        QCOMPARE(info.exitCode, 0);
        auto map = test::runCli({QStringLiteral("map"), QStringLiteral("--json"), image});
        QCOMPARE(map.exitCode, 0);
        QVERIFY(map.out.contains("\"data\":true"));
        QFETCH(bool, sameMapAsQemu);
        if (sameMapAsQemu)
            compareMaps(image);
    }

    void backingChainWithChanges()
    {
        sh(QStringLiteral(
            "mkdir -p chain && cd chain && qemu-img convert -f raw -O qcow2 ../base.raw base.qcow2 && "
            "qemu-img create -q -f qcow2 -b base.qcow2 -F qcow2 mid.qcow2 && "
            "qemu-io -c 'write -P 0xab 0 64k' -c 'write -P 0x5a 70000 5000' -c 'write -z 1M 192k' -c 'discard 2M 64k' mid.qcow2 >/dev/null && "
            "qemu-img create -q -f qcow2 -b mid.qcow2 -F qcow2 top.qcow2 16M && "
            "qemu-io -c 'write -P 0xcd 3M 100k' -c 'write -z 4M 64k' -c 'write -P 0x77 13M 64k' top.qcow2 >/dev/null"));
        const QString top = path(QStringLiteral("chain/top.qcow2"));
        QCOMPARE(catHash({}, top), qemuRawHash(top)); // top is larger than its backing: the tail reads zeros
        compareMaps(top);
        auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), top});
        const QJsonObject o = QJsonDocument::fromJson(info.out).object();
        QCOMPARE(o[QStringLiteral("backing_chain")].toArray().size(), 2);
        QVERIFY(o[QStringLiteral("backing_chain")].toArray()[1].toString().endsWith(QStringLiteral("chain/base.qcow2")));
    }

    void extendedL2Overlay()
    {
        sh(QStringLiteral(
            "mkdir -p ext && cd ext && qemu-img convert -f raw -O qcow2 ../base.raw base.qcow2 && "
            "qemu-img create -q -f qcow2 -o extended_l2=on -b base.qcow2 -F qcow2 top.qcow2 && "
            "qemu-io -c 'write -P 0xee 2k 2k' -c 'write -P 0xef 70k 6k' -c 'write -z 128k 2k' -c 'write -P 0x12 1M 64k' top.qcow2 >/dev/null"));
        const QString top = path(QStringLiteral("ext/top.qcow2"));
        QCOMPARE(catHash({}, top), qemuRawHash(top));
        compareMaps(top);
    }

    void rawBackingFile()
    {
        sh(QStringLiteral(
            "mkdir -p rawb && cd rawb && cp ../base.raw disk.raw && "
            "qemu-img create -q -f qcow2 -b disk.raw -F raw top.qcow2 && qemu-io -c 'write -P 0x42 5M 1M' top.qcow2 >/dev/null"));
        const QString top = path(QStringLiteral("rawb/top.qcow2"));
        QCOMPARE(catHash({}, top), qemuRawHash(top));
    }

    void backingOutsideTheFolderNeedsPermission()
    {
        sh(QStringLiteral(
            "mkdir -p outside/a outside/b && qemu-img convert -f raw -O qcow2 base.raw outside/b/base.qcow2 && "
            "cd outside/a && qemu-img create -q -f qcow2 -b ../b/base.qcow2 -F qcow2 top.qcow2"));
        const QString top = path(QStringLiteral("outside/a/top.qcow2"));
        auto refused = test::runCli({QStringLiteral("cat"), top});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("outside the image's folder") && refused.err.contains("--allow-backing"), refused.err.constData());
        QCOMPARE(catHash({QStringLiteral("--allow-backing")}, top), test::sha256File(raw_));
    }

    void loopsAndDepthAreRefused()
    {
        sh(QStringLiteral(
            "mkdir -p loop && cd loop && qemu-img create -q -f qcow2 a.qcow2 1M && qemu-img create -q -f qcow2 -b a.qcow2 -F qcow2 b.qcow2 && "
            "qemu-img rebase -u -b b.qcow2 -F qcow2 a.qcow2"));
        auto loop = test::runCli({QStringLiteral("cat"), path(QStringLiteral("loop/a.qcow2"))}, 20000);
        QCOMPARE(loop.exitCode, 1);
        QVERIFY2(loop.err.contains("loop"), loop.err.constData());
        // Refused from the headers: a few small reads, nothing written.
        QVERIFY2(loop.work.rchar >= 0 && loop.work.rchar < (1 << 20), qPrintable(QString::number(loop.work.rchar)));
        QCOMPARE(loop.out.size(), 0);

        sh(QStringLiteral(
            "mkdir -p deep && cd deep && qemu-img create -q -f qcow2 l0.qcow2 1M && "
            "i=1; while [ $i -le 66 ]; do qemu-img create -q -f qcow2 -b l$((i-1)).qcow2 -F qcow2 -u l$i.qcow2 1M; i=$((i+1)); done"));
        auto deep = test::runCli({QStringLiteral("cat"), path(QStringLiteral("deep/l66.qcow2"))}, 20000);
        QCOMPARE(deep.exitCode, 1);
        QVERIFY2(deep.err.contains("deeper than 64"), deep.err.constData());
        QCOMPARE(catHash({}, path(QStringLiteral("deep/l60.qcow2"))), test::sha256(QByteArray(1 << 20, '\0')));
    }
};

QTEST_GUILESS_MAIN(TestQcow2Generated)
#include "tst_qcow2_generated.moc"
