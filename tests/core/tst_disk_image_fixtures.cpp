// SPDX-License-Identifier: MIT
// The reference images made by qemu-img (tests/data/images): the virtual disk hashes to the truth
// sha256, `map` equals qemu-img map, `info` agrees with qemu-img info, snapshots read their own
// content, and images a reader must refuse are refused with a clear message.

#include "fixtures.h"
#include "formats/filesystem/tsk_container.h"
#include "formats/format.h"
#include "formats/image/disk_image.h"
#include "formats/partitions/partition_table.h"
#include "formats/qcow2/qcow2_image.h"
#include "io/counting_source.h"
#include "io/file_source.h"
#include "test_files.h"
#include "open/spec.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QFile>
#include <QJsonDocument>
#include <QTest>

using namespace asc;

static QByteArray hashSource(const ByteSource &source)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    std::vector<char> buffer(1 << 20);
    for (uint64_t at = 0;;) {
        auto got = source.readAt(at, buffer);
        if (!got)
            return "error: " + got.error().toString().toUtf8();
        if (*got == 0)
            break;
        hash.addData(QByteArrayView(buffer.data(), qsizetype(*got)));
        at += *got;
    }
    return hash.result().toHex();
}

class TestDiskImageFixtures : public QObject {
    Q_OBJECT

    QTemporaryDir scratch_;
    std::vector<test::ImageFixture> fixtures_;

private Q_SLOTS:
    void initTestCase()
    {
        fixtures_ = test::imageFixtures(scratch_);
        QVERIFY(fixtures_.size() >= 20);
    }

    void virtualDiskHashes_data()
    {
        QTest::addColumn<int>("index");
        for (size_t i = 0; i < fixtures_.size(); ++i)
            QTest::newRow(qPrintable(fixtures_[i].name)) << int(i); // qcow2, raw, vmdk, vdi, vpc, vhdx
    }

    void virtualDiskHashes()
    {
        QFETCH(int, index);
        const test::ImageFixture &fx = fixtures_[size_t(index)];
        auto location = resolve(fx.path);
        if (fx.expect == QLatin1String("refuse")) {
            QVERIFY(!location.ok());
            const QString text = location.error().toString();
            QVERIFY2(text.contains(fx.path) && text.contains(QStringLiteral("encrypted")), qPrintable(text));
            return;
        }
        QVERIFY2(location.ok(), qPrintable(location.ok() ? QString() : location.error().toString()));
        QCOMPARE(location->source->size(), fx.virtualSize);
        QCOMPARE(hashSource(*location->source), fx.virtualSha256);
        // Unaligned reads across cluster boundaries give the same bytes as one big read.
        std::vector<char> whole(size_t(std::min<uint64_t>(fx.virtualSize, 3 << 20)));
        QVERIFY(location->source->readExact(0, whole).ok());
        for (uint64_t at = 1; at + 70001 < whole.size(); at += 524287) {
            std::vector<char> piece(70001);
            QVERIFY(location->source->readExact(at, piece).ok());
            QVERIFY(std::equal(piece.begin(), piece.end(), whole.begin() + qsizetype(at)));
        }
    }

    void mapMatchesQemu_data() { virtualDiskHashes_data(); }

    void mapMatchesQemu()
    {
        QFETCH(int, index);
        const test::ImageFixture &fx = fixtures_[size_t(index)];
        // Every format qemu reports block status for. Not VHDX (qemu has none: one data extent for
        // the whole disk) nor raw files (not images); refused images have no map.
        if (fx.format == QLatin1String("vhdx") || fx.format == QLatin1String("raw") || fx.expect != QLatin1String("read"))
            QSKIP("qemu-img reports no block status for this format");
        auto disk = unwrapImages(FileSource::open(fx.path).value());
        QVERIFY(disk.ok());
        auto image = std::dynamic_pointer_cast<const DiskImage>(*disk);
        QVERIFY2(image, qPrintable(fx.name));
        auto extents = image->map(0, image->size());
        QVERIFY(extents.ok());
        QJsonArray ours = extentsToJson(*extents);
        for (qsizetype i = 0; i < ours.size(); ++i) {
            QJsonObject o = ours[i].toObject();
            o.remove(QStringLiteral("compressed")); // qemu-img 7.2 does not print it
            ours[i] = o;
        }
        QCOMPARE(ours, fx.truth[QStringLiteral("qemu_img_map")].toArray());
    }

    void infoAgreesWithQemu_data() { virtualDiskHashes_data(); }

    void infoAgreesWithQemu()
    {
        QFETCH(int, index);
        const test::ImageFixture &fx = fixtures_[size_t(index)];
        if (fx.format != QLatin1String("qcow2") || fx.expect != QLatin1String("read"))
            QSKIP("qcow2 images only");
        auto image = Qcow2Image::open(FileSource::open(fx.path).value());
        QVERIFY(image.ok());
        const QJsonObject ours = (*image)->info();
        const QJsonObject qemu = fx.truth[QStringLiteral("qemu_img_info")].toObject();
        const QJsonObject specific = qemu[QStringLiteral("format-specific")].toObject()[QStringLiteral("data")].toObject();
        QCOMPARE(ours[QStringLiteral("virtual_size")].toInteger(), qemu[QStringLiteral("virtual-size")].toInteger());
        QCOMPARE(ours[QStringLiteral("cluster_size")].toInteger(), qemu[QStringLiteral("cluster-size")].toInteger());
        QCOMPARE(ours[QStringLiteral("compat")].toString(), specific[QStringLiteral("compat")].toString());
        if (specific.contains(QStringLiteral("compression-type")))
            QCOMPARE(ours[QStringLiteral("compression_type")].toString(), specific[QStringLiteral("compression-type")].toString());
        if (specific.contains(QStringLiteral("extended-l2")))
            QCOMPARE(ours[QStringLiteral("extended_l2")].toBool(), specific[QStringLiteral("extended-l2")].toBool());
        if (specific.contains(QStringLiteral("lazy-refcounts")))
            QCOMPARE(ours[QStringLiteral("lazy_refcounts")].toBool(), specific[QStringLiteral("lazy-refcounts")].toBool());
        QCOMPARE(ours[QStringLiteral("refcount_bits")].toInt(), specific[QStringLiteral("refcount-bits")].toInt());
        QCOMPARE(ours[QStringLiteral("corrupt")].toBool(), specific[QStringLiteral("corrupt")].toBool());
        QCOMPARE(ours[QStringLiteral("dirty")].toBool(), qemu[QStringLiteral("dirty-flag")].toBool());
        if (qemu.contains(QStringLiteral("backing-filename"))) {
            QCOMPARE(ours[QStringLiteral("backing_file")].toString(), qemu[QStringLiteral("backing-filename")].toString());
            QCOMPARE(ours[QStringLiteral("backing_format")].toString(), qemu[QStringLiteral("backing-filename-format")].toString());
            QCOMPARE(ours[QStringLiteral("backing_chain")].toArray().size(), fx.truth[QStringLiteral("qemu_img_info_backing_chain")].toArray().size() - 1);
        }
        const QJsonArray snapshots = qemu[QStringLiteral("snapshots")].toArray();
        QCOMPARE(ours[QStringLiteral("snapshots")].toArray().size(), snapshots.size());
        for (qsizetype i = 0; i < snapshots.size(); ++i) {
            const QJsonObject a = ours[QStringLiteral("snapshots")].toArray()[i].toObject();
            const QJsonObject b = snapshots[i].toObject();
            QCOMPARE(a[QStringLiteral("name")].toString(), b[QStringLiteral("name")].toString());
            QCOMPARE(a[QStringLiteral("id")].toString(), b[QStringLiteral("id")].toString());
            QCOMPARE(a[QStringLiteral("date_sec")].toInteger(), b[QStringLiteral("date-sec")].toInteger());
            QCOMPARE(a[QStringLiteral("date_nsec")].toInteger(), b[QStringLiteral("date-nsec")].toInteger());
            QCOMPARE(a[QStringLiteral("vm_state_size")].toInteger(), b[QStringLiteral("vm-state-size")].toInteger());
        }
        if (qemu[QStringLiteral("dirty-flag")].toBool())
            QVERIFY(!ours[QStringLiteral("warnings")].toArray().isEmpty());
    }

    void snapshotsReadTheirOwnContent()
    {
        for (const test::ImageFixture &fx : fixtures_) {
            for (const auto &value : fx.truth[QStringLiteral("snapshots")].toArray()) {
                const QJsonObject snapshot = value.toObject();
                Qcow2Image::OpenOptions options;
                options.snapshot = snapshot[QStringLiteral("name")].toString();
                auto image = Qcow2Image::open(FileSource::open(fx.path).value(), options);
                QVERIFY(image.ok());
                QCOMPARE((*image)->size(), quint64(snapshot[QStringLiteral("virtual_size")].toInteger()));
                QCOMPARE(hashSource(**image), snapshot[QStringLiteral("virtual_sha256")].toString().toLatin1());
            }
        }
    }

    void partitionTablesMatchSfdisk()
    {
        for (const QString &name : {QStringLiteral("mbr-fat16-ext2-fat12"), QStringLiteral("gpt-fat32-ext4")}) {
            const test::ImageFixture *fx = nullptr;
            for (const auto &f : fixtures_)
                if (f.name.startsWith(name))
                    fx = &f;
            QVERIFY(fx);
            QFile truthFile(test::dataPath(QStringLiteral("images/") + name + QStringLiteral(".partitions.json")));
            QVERIFY(truthFile.open(QIODevice::ReadOnly));
            const QJsonObject truth = QJsonDocument::fromJson(truthFile.readAll()).object()[QStringLiteral("partitiontable")].toObject();
            auto table = readPartitionTable(*FileSource::open(fx->path).value());
            QVERIFY(table.ok());
            QCOMPARE(table->label, truth[QStringLiteral("label")].toString());
            const QJsonArray parts = truth[QStringLiteral("partitions")].toArray();
            QCOMPARE(int(table->partitions.size()), int(parts.size()));
            for (qsizetype i = 0; i < parts.size(); ++i) {
                const QJsonObject t = parts[i].toObject();
                const Partition &p = table->partitions[size_t(i)];
                QVERIFY(t[QStringLiteral("node")].toString().endsWith(QString::number(p.number)));
                QCOMPARE(p.start / 512, quint64(t[QStringLiteral("start")].toInteger()));
                QCOMPARE(p.length / 512, quint64(t[QStringLiteral("size")].toInteger()));
                const QString type = t[QStringLiteral("type")].toString();
                if (table->label == QLatin1String("gpt"))
                    QCOMPARE(p.type, type);
                else
                    QCOMPARE(p.type, QStringLiteral("0x%1").arg(type.toUInt(nullptr, 16), 2, 16, QLatin1Char('0')));
                QCOMPARE(p.bootable, t[QStringLiteral("bootable")].toBool());
            }
            if (truth.contains(QStringLiteral("id")))
                QCOMPARE(table->diskId.toUpper(), truth[QStringLiteral("id")].toString().toUpper());
        }
    }

    // The GUI reads a filesystem a folder at a time: descending with listDirectory finds exactly
    // what the whole walk lists, the top folder alone reads far less, and find() resolves every
    // path (and nothing else) without a walk.
    void filesystemsFolderByFolder()
    {
        int checked = 0;
        for (const auto &fx : fixtures_) {
            if (fx.format != QLatin1String("raw") || !fx.name.contains(QLatin1String("fat")))
                continue;
            const QStringList partitions = fx.name.startsWith(QLatin1String("mbr")) ? QStringList{QStringLiteral("p1"), QStringLiteral("p5"), QStringLiteral("p6")}
                                                                                    : QStringList{QStringLiteral("p1"), QStringLiteral("p2")};
            for (const QString &number : partitions) {
                auto partition = resolve(fx.path + QStringLiteral("!/") + number);
                QVERIFY2(partition.ok(), partition.ok() ? "" : qPrintable(partition.error().toString()));
                auto walked = std::make_shared<CountingSource>(partition->source);
                auto whole = TskContainer::open(walked);
                QVERIFY2(whole.ok(), whole.ok() ? "" : qPrintable(whole.error().toString()));
                QMap<QByteArray, Entry> all;
                QVERIFY((*whole)->list([&](const Entry &e) { all.insert(e.path, e); return true; }).ok());
                QVERIFY(all.size() > 10);

                auto counted = std::make_shared<CountingSource>(partition->source);
                auto lazy = TskContainer::open(counted);
                QVERIFY(lazy.ok());
                QVERIFY((*lazy)->listsFolderByFolder());
                const uint64_t openBytes = counted->bytes();
                QMap<QByteArray, Entry> seen;
                std::vector<Entry> folders{Entry{}};
                folders.front().type = EntryType::Dir;
                bool first = true;
                QByteArrayList strays; // entries a folder listing returned that are not its direct children
                while (!folders.empty()) {
                    const Entry folder = folders.back();
                    folders.pop_back();
                    auto listed = (*lazy)->listDirectory(folder, [&](const Entry &e) {
                        const QByteArray prefix = folder.path.isEmpty() ? QByteArray() : folder.path + '/';
                        if (!e.path.startsWith(prefix) || e.path.indexOf('/', prefix.size()) >= 0)
                            strays << folder.path + " -> " + e.path;
                        seen.insert(e.path, e);
                        if (e.type == EntryType::Dir)
                            folders.push_back(e);
                        return true;
                    });
                    QVERIFY2(listed.ok(), listed.ok() ? "" : qPrintable(listed.error().toString()));
                    if (first && all.size() > 100)
                        QVERIFY2(counted->bytes() - openBytes < (walked->bytes() / 2), qPrintable(fx.name));
                    first = false;
                }
                QVERIFY2(strays.isEmpty(), strays.join(", ").constData());
                QCOMPARE(seen.keys(), all.keys());
                for (const auto &[path, entry] : all.asKeyValueRange()) {
                    QCOMPARE(int(seen[path].type), int(entry.type));
                    QCOMPARE(seen[path].size, entry.size);
                    QCOMPARE(seen[path].mode, entry.mode);
                    auto found = (*lazy)->find(path);
                    QVERIFY2(found.ok(), path.constData());
                    QCOMPARE(found->path, path);
                    QCOMPARE(found->dataOffset, entry.dataOffset);
                    if (entry.type == EntryType::File) {
                        auto below = (*lazy)->find(path + "/x");
                        QVERIFY(!below.ok());
                        QCOMPARE(below.error().kind, ErrorKind::NotFound);
                    }
                }
                auto missing = (*lazy)->find("no/such/file");
                QVERIFY(!missing.ok());
                QCOMPARE(missing.error().kind, ErrorKind::NotFound);
                ++checked;
            }
        }
        QCOMPARE(checked, 5); // FAT16, ext2, FAT12 on MBR; FAT32, ext4 on GPT
    }
};

QTEST_GUILESS_MAIN(TestDiskImageFixtures)
#include "tst_disk_image_fixtures.moc"
