// SPDX-License-Identifier: MIT
// Our squashfs reader against unsquashfs on images mksquashfs writes with each compressor (gzip,
// lzma, xz, lzo, lz4, zstd): fragments, sparse files, hard links, symlinks, a folder of 2,000 names;
// an AppImage (an ELF runtime with the image after it) and an image nested in a tar; damage as an
// error naming the file.

#include "test_files.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace asc;

class TestSquashfs : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    test::RunResult sh(const QString &script) { return test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script}, 300000, dir_.path()); }
    QString at(const QString &name) const { return dir_.filePath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("mksquashfs"));
        ASC_REQUIRE_TOOL(QStringLiteral("unsquashfs"));
        auto made = sh(QStringLiteral("set -e; mkdir -p src/d src/many src/e; cd src; seq 1 200000 > d/numbers; head -c 500000 /dev/urandom > rand; "
                                      "truncate -s 5M sparse; echo end >> sparse; echo small > e/small; ln e/small e/hard; ln -s d/numbers link; : > empty; "
                                      "i=0; while [ $i -lt 2000 ]; do printf $i > many/item_$i; i=$((i + 1)); done"));
        QVERIFY2(made.exitCode == 0, made.err.constData());
    }

    void readsAsUnsquashfs_data()
    {
        QTest::addColumn<QString>("compressor");
        for (const char *c : {"gzip", "lzma", "xz", "lzo", "lz4", "zstd"})
            QTest::newRow(c) << QString::fromLatin1(c);
    }

    void readsAsUnsquashfs()
    {
        QFETCH(QString, compressor);
        auto made = sh(QStringLiteral("rm -rf img ref out && mksquashfs src img -comp %1 -quiet -noappend >/dev/null && unsquashfs -q -n -d ref img >/dev/null").arg(compressor));
        QVERIFY2(made.exitCode == 0, made.err.constData());
        auto extracted = test::runCli({QStringLiteral("extract"), at(QStringLiteral("img")), QStringLiteral("-C"), at(QStringLiteral("out"))});
        QVERIFY2(extracted.exitCode == 0, extracted.err.constData());
        auto diff = sh(QStringLiteral("diff -r --no-dereference ref out && echo same"));
        QCOMPARE(QString::fromUtf8(diff.out).trimmed(), QStringLiteral("same"));
        auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), at(QStringLiteral("img"))});
        QCOMPARE(QJsonDocument::fromJson(info.out).object()[QStringLiteral("compression")].toString(), compressor);
    }

    void anAppImageAndANestedImageOpen()
    {
        auto made = sh(QStringLiteral("set -e; mksquashfs src plain.sfs -quiet -noappend >/dev/null; cat /bin/true plain.sfs > app.AppImage; "
                                      "tar -cf nested.tar plain.sfs"));
        QVERIFY2(made.exitCode == 0, made.err.constData());
        for (const QString &spec : {at(QStringLiteral("app.AppImage")) + QStringLiteral("!/d/numbers"), at(QStringLiteral("nested.tar")) + QStringLiteral("!/plain.sfs!/d/numbers")}) {
            auto cat = test::runCli({QStringLiteral("cat"), spec});
            QVERIFY2(cat.exitCode == 0, cat.err.constData());
            QCOMPARE(test::sha256(cat.out), test::sha256File(at(QStringLiteral("src/d/numbers"))));
        }
    }

    void damageIsAnErrorNamingTheFile()
    {
        auto made = sh(QStringLiteral("mksquashfs src bad.sfs -comp gzip -quiet -noappend >/dev/null"));
        QCOMPARE(made.exitCode, 0);
        QFile f(at(QStringLiteral("bad.sfs")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        f.close();
        // d/numbers' first block is among the first data written, after the superblock.
        QVERIFY(test::flipByte(at(QStringLiteral("bad.sfs")), 200));
        auto cat = test::runCli({QStringLiteral("cat"), at(QStringLiteral("bad.sfs")) + QStringLiteral("!/d/numbers")});
        auto other = test::runCli({QStringLiteral("cat"), at(QStringLiteral("bad.sfs")) + QStringLiteral("!/rand")});
        // Whichever file the byte is in fails by name; never other bytes with exit 0.
        const bool numbersRight = cat.exitCode == 0 && test::sha256(cat.out) == test::sha256File(at(QStringLiteral("src/d/numbers")));
        const bool randRight = other.exitCode == 0 && test::sha256(other.out) == test::sha256File(at(QStringLiteral("src/rand")));
        QVERIFY(!(numbersRight && randRight));
        if (!numbersRight) {
            QCOMPARE(cat.exitCode, 1);
            QVERIFY2(cat.err.contains("bad.sfs!/d/numbers") && cat.err.contains("does not decode"), cat.err.constData());
        }
        if (!randRight)
            QCOMPARE(other.exitCode, 1);
        // A cut image is refused whole.
        auto cut = sh(QStringLiteral("head -c 100000 bad.sfs > cut.sfs"));
        QCOMPARE(cut.exitCode, 0);
        auto ls = test::runCli({QStringLiteral("ls"), at(QStringLiteral("cut.sfs"))});
        QCOMPARE(ls.exitCode, 1);
        QVERIFY2(ls.err.contains("cut short"), ls.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestSquashfs)
#include "tst_squashfs.moc"
