// SPDX-License-Identifier: MIT
// LVM2 against what lvm2 wrote (tests/data/disks/make_lvm*.sh, run as root with the real tools):
// a RHEL-style disk (GPT, /boot, a PV whose XFS root volume has two segments), a Proxmox-style pool
// (thin volumes and a thin snapshot whose pool metadata thin_restore wrote) and one PV of a
// two-disk volume group. Every volume's bytes against the sha256 of what was placed in it, every
// file inside against the source tree, the names and UUIDs against `lvs`, and damage as errors.

#include "fixtures.h"
#include "test_files.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace asc;

class TestLvm : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString gpt_, thin_, pair_, grown_;

    QString unpack(const QString &name) { return test::unpackDisk(dir_, name + QStringLiteral(".xz"), name); }
    static QList<QByteArrayList> tsv(const QString &name) { return test::diskTruth(name); }

    // The SPEC of a volume, given the SPEC of its PV.
    static QString volumeSpec(const QString &pv, const QByteArray &vg, const QByteArray &lv) { return pv + QStringLiteral("!/") + QString::fromUtf8(vg + '/' + lv); }

    void volumesAndFilesMatch(const QString &pv, const QByteArray &vg, const QString &volumes, const QString &files, const QString &filesystemPrefix)
    {
        const auto volumeRows = tsv(volumes);
        QVERIFY(!volumeRows.isEmpty());
        for (const QByteArrayList &row : volumeRows) {
            auto cat = test::runCli({QStringLiteral("cat"), volumeSpec(pv, vg, row[0])});
            QVERIFY2(cat.exitCode == 0, cat.err.constData());
            QCOMPARE(QByteArray::number(cat.out.size()), row[1]);
            QCOMPARE(test::sha256(cat.out), row[2]);
        }
        int compared = 0;
        for (const QByteArrayList &row : tsv(files)) {
            if (row[0] == "boot")
                continue; // the plain partition: read by the ext tests
            auto cat = test::runCli({QStringLiteral("cat"), volumeSpec(pv, vg, row[0]) + filesystemPrefix + QString::fromUtf8(row[1])});
            QVERIFY2(cat.exitCode == 0, cat.err.constData());
            QCOMPARE(QByteArray::number(cat.out.size()), row[2]);
            QCOMPARE(test::sha256(cat.out), row[3]);
            ++compared;
        }
        QVERIFY(compared >= 3);
    }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("xz"));
        gpt_ = unpack(QStringLiteral("lvm-gpt.raw"));
        thin_ = unpack(QStringLiteral("lvm-thin.raw"));
        pair_ = unpack(QStringLiteral("lvm-pair-a.raw"));
        grown_ = unpack(QStringLiteral("lvm-grown.raw"));
        QVERIFY(!gpt_.isEmpty() && !thin_.isEmpty() && !pair_.isEmpty() && !grown_.isEmpty());
    }

    void aRhelDiskListsItsVolumesAsLvsDoes()
    {
        auto ls = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), gpt_ + QStringLiteral("!/p2")});
        QVERIFY2(ls.exitCode == 0, ls.err.constData());
        QMap<QString, double> sizes;
        for (const QByteArray &line : ls.out.split('\n')) {
            if (line.isEmpty())
                continue;
            const QJsonObject v = QJsonDocument::fromJson(line).object();
            sizes[v[QStringLiteral("path")].toString()] = v[QStringLiteral("size")].toDouble();
        }
        QFile lvsFile(test::dataPath(QStringLiteral("disks/lvm-gpt.lvs.json")));
        QVERIFY(lvsFile.open(QIODevice::ReadOnly));
        const QJsonArray lvs = QJsonDocument::fromJson(lvsFile.readAll())[QStringLiteral("report")][0][QStringLiteral("lv")].toArray();
        QVERIFY(lvs.size() >= 3);
        auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), gpt_ + QStringLiteral("!/p2")});
        QVERIFY2(info.exitCode == 0, info.err.constData());
        const QJsonObject vgInfo = QJsonDocument::fromJson(info.out).object();
        QCOMPARE(vgInfo[QStringLiteral("vg_name")].toString(), QStringLiteral("rhel"));
        QMap<QString, QString> uuids;
        for (const QJsonValue &lv : vgInfo[QStringLiteral("logical_volumes")].toArray())
            uuids[lv[QStringLiteral("lv_name")].toString()] = lv[QStringLiteral("lv_uuid")].toString();
        for (const QJsonValue &lv : lvs) {
            const QString name = lv[QStringLiteral("lv_name")].toString();
            const QString path = QStringLiteral("rhel/") + name;
            QVERIFY2(sizes.contains(path), qPrintable(path));
            QCOMPARE(QString::number(qint64(sizes[path])) + QLatin1Char('B'), lv[QStringLiteral("lv_size")].toString());
            QCOMPARE(uuids.value(name), lv[QStringLiteral("lv_uuid")].toString());
        }
        QVERIFY(sizes.contains(QStringLiteral("rhel")));
        // The partition names what it holds, and the root volume's segments are two.
        auto disk = test::runCli({QStringLiteral("ls"), gpt_});
        QVERIFY2(disk.out.contains("LVM physical volume") && !disk.out.contains("not read"), disk.out.constData());
        auto root = test::runCli({QStringLiteral("ls"), gpt_ + QStringLiteral("!/p2")});
        QVERIFY2(root.out.contains("rhel/root  [LVM logical volume (linear; 2 segments), XFS]"), root.out.constData());
    }

    void everyVolumeAndFileReadsAsWritten()
    {
        volumesAndFilesMatch(gpt_ + QStringLiteral("!/p2"), "rhel", QStringLiteral("lvm-gpt.volumes.tsv"), QStringLiteral("lvm-gpt.files.tsv"), QStringLiteral("!/"));
    }

    void thinVolumesReadThroughTheirPool()
    {
        // A guest's disk in a Proxmox pool: the tree goes on down into its partitions.
        volumesAndFilesMatch(thin_ + QStringLiteral("!/p1"), "pve", QStringLiteral("lvm-thin.volumes.tsv"), QStringLiteral("lvm-thin.files.tsv"), QStringLiteral("!/p1!/"));
        // The snapshot kept what its origin lost.
        auto gone = test::runCli({QStringLiteral("cat"), thin_ + QStringLiteral("!/p1!/pve/vm-100-disk-0!/p1!/etc/motd")});
        QCOMPARE(gone.exitCode, 1);
        auto pool = test::runCli({QStringLiteral("cat"), thin_ + QStringLiteral("!/p1!/pve/data")});
        QVERIFY(pool.exitCode != 0);
        QVERIFY2(pool.err.contains("thin pool"), pool.err.constData());
        auto ls = test::runCli({QStringLiteral("ls"), thin_ + QStringLiteral("!/p1")});
        QVERIFY2(ls.out.contains("pve/vm-100-disk-0  [LVM logical volume (thin), partitioned disk]"), ls.out.constData());
    }

    void hashGoesDownThroughEveryVolume()
    {
        // `hash` of the whole disk: through the partition, the pool and the guest's disk to its files.
        auto hash = test::runCli({QStringLiteral("hash"), thin_});
        QVERIFY2(hash.exitCode == 0, hash.err.constData());
        int found = 0;
        for (const QByteArrayList &row : tsv(QStringLiteral("lvm-thin.files.tsv"))) {
            const QByteArray line = row[3] + "  p1!/pve/" + row[0] + "!/p1!/" + row[1] + '\n';
            QVERIFY2(hash.out.contains(line), line.constData());
            ++found;
        }
        QVERIFY(found >= 5);
    }

    void aGroupGrownOverTwoPartitionsReadsFromEither()
    {
        // The disk was enlarged and a second partition added to the VG: "data" has a segment on each.
        for (const char *pv : {"!/p1", "!/p2"}) {
            auto ls = test::runCli({QStringLiteral("ls"), grown_ + QLatin1String(pv)});
            QVERIFY2(ls.exitCode == 0, ls.err.constData());
            QVERIFY2(ls.out.contains("grown/data  [LVM logical volume (linear; 2 segments), ext4]"), ls.out.constData());
            volumesAndFilesMatch(grown_ + QLatin1String(pv), "grown", QStringLiteral("lvm-grown.volumes.tsv"), QStringLiteral("lvm-grown.files.tsv"), QStringLiteral("!/"));
        }
    }

    void aVolumeOnAMissingDiskNamesIt()
    {
        QFile uuidFile(test::dataPath(QStringLiteral("disks/lvm-pair-a.missing-pv.txt")));
        QVERIFY(uuidFile.open(QIODevice::ReadOnly));
        const QByteArray missing = uuidFile.readAll().trimmed();
        QCOMPARE(missing.size(), 38);
        // Listed, and said on stderr with exit 1: the listing is whole but a volume is not.
        auto ls = test::runCli({QStringLiteral("ls"), pair_});
        QCOMPARE(ls.exitCode, 1);
        QVERIFY2(ls.out.contains("pair/data (unreadable: needs physical volume " + missing), ls.out.constData());
        QVERIFY2(ls.err.contains("pair/data: needs physical volume " + missing), ls.err.constData());
        auto local = test::runCli({QStringLiteral("cat"), pair_ + QStringLiteral("!/pair/local")});
        QCOMPARE(local.exitCode, 0);
        QCOMPARE(local.out.size(), 4 << 20);
        auto data = test::runCli({QStringLiteral("cat"), pair_ + QStringLiteral("!/pair/data")});
        QCOMPARE(data.exitCode, 1);
        QCOMPARE(data.out.size(), 0);
        QVERIFY2(data.err.contains(missing), data.err.constData());
    }

    void damageIsAnErrorNamingWhere()
    {
        // A byte of the metadata text: its checksum names the offset.
        const QString text = dir_.filePath(QStringLiteral("bad-text.raw"));
        QVERIFY(QFile::copy(pair_, text));
        // The ring keeps older copies of the text before the current one, which is the last.
        QFile ring(text);
        QVERIFY(ring.open(QIODevice::ReadOnly));
        const qsizetype current = ring.readAll().lastIndexOf("extent_size = ");
        ring.close();
        QVERIFY(current > 0);
        QVERIFY(test::flipByte(text, current + 14));
        auto ls = test::runCli({QStringLiteral("ls"), text});
        QCOMPARE(ls.exitCode, 1);
        QVERIFY2(ls.err.contains("LVM metadata text fails its checksum") && ls.err.contains("offset "), ls.err.constData());
        // A byte of the thin pool's metadata: the guest's disk is an error, never other bytes.
        const QString thin = dir_.filePath(QStringLiteral("bad-thin.raw"));
        QVERIFY(QFile::copy(thin_, thin));
        QFile f(thin);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray all = f.readAll();
        f.close();
        // The pool's superblock magic (27022010) starts the metadata volume, 32 bytes in.
        const qsizetype magic = all.indexOf(QByteArray::fromHex("ba529c0100000000"));
        QVERIFY(magic > 32);
        QVERIFY(test::flipByte(thin, magic - 32 + 100)); // inside the superblock, which its checksum covers
        auto cat = test::runCli({QStringLiteral("cat"), thin + QStringLiteral("!/p1!/pve/vm-100-disk-0")});
        QCOMPARE(cat.exitCode, 1);
        QVERIFY2(cat.err.contains("thin pool superblock fails its checksum"), cat.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestLvm)
#include "tst_lvm.moc"
