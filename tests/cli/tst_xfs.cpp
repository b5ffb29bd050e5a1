// SPDX-License-Identifier: MIT
// Our XFS reader against what the kernel and xfsprogs wrote. A v5 volume the kernel wrote through a
// mount (tests/data/disks/make_xfs.sh: every directory form, an extent B-tree, sparse, unwritten
// and reflinked extents, local and remote symlinks, devices), compared entry by entry with what the
// kernel showed; volumes mkfs.xfs -p wrote at test time in the layouts people have (v5 defaults, v4
// as RHEL 7 made it, large extent counts, 1 KiB blocks with 8 KiB directory blocks), extracted and
// compared with diff -r; and damage, each an error naming where.

#include "filesystem_truth.h"
#include "fixtures.h"
#include "test_files.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace asc;

namespace {

// Writes an mkfs.xfs protofile for the tree at argv[1] (xfsprogs' proto.c format) to argv[2].
const char *kProtoScript = R"PY(
import os, stat, sys
src, out = sys.argv[1], sys.argv[2]
lines = ["/dev/null", "0 0", "d--755 0 0"]
def mode(st, kind):
    return kind + ("u" if st.st_mode & stat.S_ISUID else "-") + ("g" if st.st_mode & stat.S_ISGID else "-") + "%03o" % (st.st_mode & 0o777)
def walk(d, depth):
    for name in sorted(os.listdir(d)):
        p = os.path.join(d, name)
        st = os.lstat(p)
        pad = " " * depth
        if stat.S_ISLNK(st.st_mode):
            lines.append("%s%s %s 0 0 %s" % (pad, name, mode(st, "l"), os.readlink(p)))
        elif stat.S_ISDIR(st.st_mode):
            lines.append("%s%s %s 0 0" % (pad, name, mode(st, "d")))
            walk(p, depth + 1)
            lines.append(pad + "$")
        else:
            lines.append("%s%s %s 0 0 %s" % (pad, name, mode(st, "-"), p))
walk(src, 1)
lines.append("$")
open(out, "w").write("\n".join(lines) + "\n")
)PY";

} // namespace

class TestXfs : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString kernel_;

    test::RunResult sh(const QString &script) { return test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script}, 300000, dir_.path()); }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("mkfs.xfs"));
        ASC_REQUIRE_TOOL(QStringLiteral("xfs_db"));
        ASC_REQUIRE_TOOL(QStringLiteral("python3"));
        ASC_REQUIRE_TOOL(QStringLiteral("xz"));
        kernel_ = dir_.filePath(QStringLiteral("kernel.img"));
        auto unpacked = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("xz -dc \"$0\" > \"$1\""), test::dataPath(QStringLiteral("disks/xfs-kernel.img.xz")), kernel_});
        QVERIFY2(unpacked.exitCode == 0, unpacked.err.constData());
        // A tree as people have one: a folder of 2,000 names (leaf/node form), a file of 3 MB,
        // a sparse file, long and short symlinks, empty files, odd modes. No remote symlink:
        // xfsprogs 6.1's -p writes v5 ones without their block header, which the kernel refuses
        // too ("metadata I/O error in xfs_readlink"); the kernel's volume above has one.
        auto made = sh(QStringLiteral("set -e; mkdir -p src/etc/ssh src/var/lib/many src/usr/bin src/big; cd src; "
                                      "printf 'host\\n' > etc/hostname; seq 1 200000 > big/numbers; head -c 3000000 /dev/urandom > big/random.bin; "
                                      "truncate -s 9M big/sparse; printf end >> big/sparse; : > etc/empty; chmod 600 etc/ssh; "
                                      "printf 'key\\n' > etc/ssh/key; chmod 400 etc/ssh/key; ln -s ../../etc/hostname usr/bin/short; "
                                      "ln -s $(printf 'q%.0s' $(seq 1 200))/target usr/bin/long; "
                                      "i=0; while [ $i -lt 2000 ]; do printf $i > var/lib/many/item_$i; i=$((i + 1)); done"));
        QVERIFY2(made.exitCode == 0, made.err.constData());
        auto proto = test::run(QStringLiteral("python3"), {QStringLiteral("-c"), QString::fromLatin1(kProtoScript), dir_.filePath(QStringLiteral("src")), dir_.filePath(QStringLiteral("proto"))});
        QVERIFY2(proto.exitCode == 0, proto.err.constData());
    }

    void theKernelsVolumeReadsAsTheKernelShowedIt()
    {
        int rows = 0;
        const QString differences = test::differencesFromKernel(kernel_, test::dataPath(QStringLiteral("disks/xfs-kernel.files.tsv")), rows);
        QVERIFY2(differences.isEmpty(), qPrintable(differences));
        QVERIFY(rows > 3000);
        // The form each file took, as xfs_db says: the test covers what it claims.
        auto db = sh(QStringLiteral("xfs_db -r -c 'path /frag' -c 'print core.format' -c 'path /big' -c 'print core.format' kernel.img"));
        QVERIFY2(db.out.count("3 (btree)") == 2, db.out.constData());
        auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), kernel_});
        const QJsonObject o = QJsonDocument::fromJson(info.out).object();
        QCOMPARE(o[QStringLiteral("label")].toString(), QStringLiteral("kernel-made"));
        QCOMPARE(o[QStringLiteral("reader")].toString(), QStringLiteral("ArchiveScope's XFS reader"));
    }

    void layoutsMkfsWritesReadAsWritten_data()
    {
        QTest::addColumn<QString>("options");
        QTest::newRow("v5 defaults") << QString();
        QTest::newRow("v4 (crc=0), as RHEL 7") << QStringLiteral("-m crc=0,finobt=0,reflink=0,rmapbt=0,bigtime=0,inobtcount=0 -i size=256");
        QTest::newRow("large extent counts") << QStringLiteral("-i nrext64=1");
        QTest::newRow("1 KiB blocks, 8 KiB directory blocks") << QStringLiteral("-b size=1024 -n size=8192");
        QTest::newRow("rmapbt, 2 KiB inodes") << QStringLiteral("-m rmapbt=1 -i size=2048");
    }

    void layoutsMkfsWritesReadAsWritten()
    {
        QFETCH(QString, options);
        auto made = sh(QStringLiteral("rm -rf fs.img out && truncate -s 320M fs.img && mkfs.xfs -q -f %1 -p proto fs.img").arg(options));
        QVERIFY2(made.exitCode == 0, made.err.constData());
        auto extracted = test::runCli({QStringLiteral("extract"), dir_.filePath(QStringLiteral("fs.img")), QStringLiteral("-C"), dir_.filePath(QStringLiteral("out"))});
        QVERIFY2(extracted.exitCode == 0, extracted.err.constData());
        auto diff = sh(QStringLiteral("diff -r --no-dereference src out && echo same"));
        QCOMPARE(QString::fromUtf8(diff.out).trimmed(), QStringLiteral("same"));
        // Modes as mkfs wrote them.
        auto ls = test::runCli({QStringLiteral("ls"), dir_.filePath(QStringLiteral("fs.img")) + QStringLiteral("!/etc/ssh")});
        QVERIFY2(ls.out.startsWith("-r-------- 0/0"), ls.out.constData());
    }

    void damageIsAnErrorNamingWhere()
    {
        // An inode's byte: its checksum fails, and that file is an error, never other bytes.
        auto made = sh(QStringLiteral("cp kernel.img bad.img && xfs_db -x -c 'path /deep/a/b/numbers' -c 'write -d core.gen 12345' bad.img >/dev/null 2>&1 && echo ok"));
        QVERIFY2(made.out.contains("ok"), made.err.constData());
        // xfs_db rewrites the CRC with the field: now break it with a byte the CRC does not know.
        auto off = sh(QStringLiteral("python3 -c \"import sys; d=open('bad.img','rb').read(); i=d.find((12345).to_bytes(4,'big')); print(i)\""));
        const qint64 at = off.out.trimmed().toLongLong();
        QVERIFY(at > 0 && (at - 92) % 256 == 0); // di_gen is 92 bytes into the inode
        QVERIFY(test::flipByte(dir_.filePath(QStringLiteral("bad.img")), at));
        auto cat = test::runCli({QStringLiteral("cat"), dir_.filePath(QStringLiteral("bad.img")) + QStringLiteral("!/deep/a/b/numbers")});
        QCOMPARE(cat.exitCode, 1);
        QCOMPARE(cat.out.size(), 0);
        QVERIFY2(cat.err.contains("inode fails its checksum"), cat.err.constData());
        // The rest of the volume still reads.
        auto other = test::runCli({QStringLiteral("cat"), dir_.filePath(QStringLiteral("bad.img")) + QStringLiteral("!/small/f")});
        QCOMPARE(other.out, QByteArray("hi\n"));

        // A feature we do not know is refused by name (xfs_db writes the superblock's CRC).
        auto feature = sh(QStringLiteral("cp kernel.img future.img && xfs_db -x -c 'sb 0' -c 'write -d features_incompat 0x1000000b' future.img >/dev/null 2>&1; echo done"));
        QVERIFY(feature.out.contains("done"));
        auto refused = test::runCli({QStringLiteral("ls"), dir_.filePath(QStringLiteral("future.img"))});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("XFS incompatible feature 0x10000000"), refused.err.constData());

        // A truncated volume: the files past its end are errors naming the offset.
        auto cut = sh(QStringLiteral("head -c 1048576 kernel.img > cut.img"));
        QCOMPARE(cut.exitCode, 0);
        auto cutLs = test::runCli({QStringLiteral("ls"), dir_.filePath(QStringLiteral("cut.img"))});
        QCOMPARE(cutLs.exitCode, 1);
        QVERIFY2(cutLs.err.contains("cut.img"), cutLs.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestXfs)
#include "tst_xfs.moc"
