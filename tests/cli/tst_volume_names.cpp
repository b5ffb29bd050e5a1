// SPDX-License-Identifier: MIT
// What we do not read is named, not "unknown": an MBR disk whose partitions hold a ZFS label
// (uberblocks 128 KiB in), bytes as even as random ones (a VeraCrypt or plain dm-crypt volume),
// swap, and zeros. Named ones are listed as not read (no expand arrow in the window), `cat`
// still gives their bytes, and zeros stay nameless.

#include "test_files.h"

#include <QTest>

using namespace asc;

class TestVolumeNames : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private Q_SLOTS:
    void unreadVolumesAreNamed()
    {
        const QString disk = dir_.filePath(QStringLiteral("volumes.raw"));
        auto made = test::run(QStringLiteral("python3"), {QStringLiteral("-c"), QStringLiteral(R"PY(
import os, random, struct, sys
mib = 1 << 20
disk = bytearray(5 * mib)
def part(slot, kind, start, count):
    e = 446 + 16 * slot
    disk[e + 4] = kind
    disk[e + 8:e + 16] = struct.pack('<II', start, count)
for slot in range(4):
    part(slot, 0x83, 2048 * (slot + 1), 2048)
disk[510:512] = b'\x55\xaa'
zfs = 1 * mib + 128 * 1024
for ub in range(4):  # little-endian uberblocks, 1 KiB apart
    disk[zfs + ub * 1024:zfs + ub * 1024 + 8] = struct.pack('<Q', 0x00bab10c)
random.seed(7)
disk[2 * mib:3 * mib] = random.randbytes(mib)
disk[3 * mib + 4096 - 10:3 * mib + 4096] = b'SWAPSPACE2'
open(sys.argv[1], 'wb').write(disk)
)PY"),
                                                          disk});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        auto ls = test::runCli({QStringLiteral("ls"), disk});
        QVERIFY2(ls.exitCode == 0, ls.err.constData());
        QVERIFY2(ls.out.contains("p1  [Linux (0x83), ZFS member (not read by ArchiveScope yet)]"), ls.out.constData());
        QVERIFY2(ls.out.contains("p2  [Linux (0x83), encrypted or random data (VeraCrypt, plain dm-crypt?) (not read by ArchiveScope yet)]"), ls.out.constData());
        QVERIFY2(ls.out.contains("p3  [Linux (0x83), Linux swap (not read by ArchiveScope yet)]"), ls.out.constData());
        QVERIFY2(ls.out.contains("p4  [Linux (0x83)]"), ls.out.constData());
        auto inside = test::runCli({QStringLiteral("ls"), disk + QStringLiteral("!/p1")});
        QCOMPARE(inside.exitCode, 1);
        QVERIFY2(inside.err.contains("ZFS member"), inside.err.constData());
        auto bytes = test::runCli({QStringLiteral("cat"), disk + QStringLiteral("!/p2")});
        QCOMPARE(bytes.exitCode, 0);
        QCOMPARE(bytes.out.size(), 1 << 20);
    }
};

QTEST_GUILESS_MAIN(TestVolumeNames)
#include "tst_volume_names.moc"
