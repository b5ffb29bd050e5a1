// SPDX-License-Identifier: MIT
// The facade both shells use, without widgets: inspect() answers with plain values; the
// TreeLoader lists a file, reads folders and nested containers on expansion, reads everything
// for the filter (partitions and filesystems too), drops an older file's results, and stops
// inside one huge entry because the stop request reaches the reads (counted, not timed).

#include "fixtures.h"
#include "formats/format.h"
#include "io/cancel.h"
#include "io/counting_source.h"
#include "io/file_source.h"
#include "io/memory_source.h"
#include "open/inspection.h"
#include "open/tree_loader.h"
#include "test_files.h"

#include <QDir>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <future>

using namespace asc;

// Reads pass through, except that read number `gateAt` waits until the test opens the gate: the
// test can act (stop) at a known point inside a listing, with no timing involved.
class GateSource final : public ByteSource {
public:
    GateSource(SourcePtr inner, uint64_t gateAt)
        : inner_(std::move(inner)),
          gateAt_(gateAt) {}
    uint64_t size() const override { return inner_->size(); }
    QString name() const override { return inner_->name(); }
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override
    {
        if (++reads_ == gateAt_) {
            waiting_ = true;
            gate_.acquire();
        }
        return inner_->readAt(offset, buf);
    }
    uint64_t reads() const { return reads_; }
    bool waiting() const { return waiting_; }
    void open() const { gate_.release(); }

private:
    SourcePtr inner_;
    uint64_t gateAt_;
    mutable std::atomic<uint64_t> reads_{0};
    mutable std::atomic<bool> waiting_{false};
    mutable QSemaphore gate_;
};

class TestTreeLoader : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString bigTarGz_; // a 24 MiB incompressible entry, then one small file

    static int32_t find(const EntryTree &tree, const QByteArray &name)
    {
        for (int32_t node = 1; node < tree.size(); ++node)
            if (tree.name(node) == QByteArrayView(name))
                return node;
        return -1;
    }

    static bool waitIdle(TreeLoader &loader)
    {
        if (!loader.isBusy())
            return true;
        QSignalSpy idle(&loader, &TreeLoader::idle);
        for (int i = 0; i < 600 && loader.isBusy(); ++i)
            idle.wait(100);
        return !loader.isBusy();
    }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        QDir().mkpath(dir_.filePath(QStringLiteral("t")));
        QDir().mkpath(dir_.filePath(QStringLiteral("n")));
        test::writeFile(dir_, QStringLiteral("t/big.bin"), test::seededBytes(24 << 20, 7));
        test::writeFile(dir_, QStringLiteral("t/zz-last.txt"), "last\n");
        bigTarGz_ = dir_.filePath(QStringLiteral("big.tar.gz"));
        auto made = test::run(QStringLiteral("bsdtar"), {QStringLiteral("-czf"), bigTarGz_, QStringLiteral("-C"), dir_.filePath(QStringLiteral("t")), QStringLiteral("big.bin"), QStringLiteral("zz-last.txt")});
        QCOMPARE(made.exitCode, 0);
    }

    void inspectAnswersWithValues()
    {
        auto tar = inspect(bigTarGz_, InspectOptions{4096, false});
        QVERIFY(tar.ok());
        QCOMPARE(tar->inspection.formatName, QStringLiteral("tar"));
        QVERIFY(tar->inspection.isContainer());
        QCOMPARE(tar->inspection.head.size(), 4096);
        QCOMPARE(tar->inspection.size, quint64(QFileInfo(bigTarGz_).size()));
        QVERIFY(tar->container);

        const QString image = test::dataPath(QStringLiteral("images/gpt.v3.qcow2"));
        auto disk = inspect(image, InspectOptions{0, true});
        QVERIFY(disk.ok());
        QCOMPARE(disk->inspection.formatName, QStringLiteral("gpt"));
        QCOMPARE(disk->inspection.imageInfo[QStringLiteral("format")].toString(), QStringLiteral("qcow2"));
        QVERIFY(!disk->inspection.allocation.empty());
        const QJsonObject json = disk->inspection.toJson();
        QCOMPARE(json[QStringLiteral("content")].toObject()[QStringLiteral("format")].toString(), QStringLiteral("gpt"));

        auto plain = inspect(dir_.filePath(QStringLiteral("t/zz-last.txt")));
        QVERIFY(plain.ok());
        QCOMPARE(plain->inspection.formatName, QStringLiteral("data"));
        QVERIFY(!plain->container);
        QCOMPARE(plain->inspection.toJson()[QStringLiteral("format")].toString(), QStringLiteral("raw"));

        auto missing = inspect(dir_.filePath(QStringLiteral("nope.tar")));
        QVERIFY(!missing.ok());
        QVERIFY(missing.error().toString().contains(QStringLiteral("nope.tar")));
    }

    void loadsAndStopsInsideOneHugeEntry()
    {
        // Listing a tar.gz decompresses through every entry. Stop while inside the 24 MiB one:
        // the next read of the file fails (CancelScope), so reads stop at once instead of going on
        // through the ~400 blocks of the entry.
        const uint64_t kReadaheadBlocks = 4; // codecs/readahead.h: the decoder's blocks in flight
        auto file = FileSource::open(bigTarGz_);
        QVERIFY(file.ok());
        auto counting = std::make_shared<CountingSource>(*file);
        QVERIFY(openContainer(counting).ok());
        const uint64_t readsToOpen = counting->reads(); // probing and opening, then listing starts over
        auto gated = std::make_shared<GateSource>(counting, readsToOpen + 4); // a few 1 MiB blocks into big.bin
        auto container = openContainer(gated);
        QVERIFY(container.ok());
        TreeLoader loader;
        QSignalSpy idle(&loader, &TreeLoader::idle);
        loader.load(*container, bigTarGz_);
        QTRY_VERIFY_WITH_TIMEOUT(gated->waiting(), 30000);
        loader.stop();
        gated->open();
        QVERIFY(waitIdle(loader));
        QCOMPARE(idle.last().first().toBool(), true); // stopped, not failed
        // The decoding thread stops at its next read once the parser sees the Stop: at most the
        // blocks it reads ahead follow the one that waited (without the stop: ~400 more).
        QVERIFY2(gated->reads() <= readsToOpen + 4 + kReadaheadBlocks, qPrintable(QString::number(gated->reads())));
        QVERIFY2(counting->bytes() < 2 * uint64_t(QFileInfo(bigTarGz_).size()) / 3,
                 qPrintable(QStringLiteral("%1 of %2 bytes read").arg(counting->bytes()).arg(QFileInfo(bigTarGz_).size())));
        QCOMPARE(find(loader.tree(), "zz-last.txt"), -1); // never got there
    }

    void cancelScopeFailsTheNextRead()
    {
        auto file = FileSource::open(bigTarGz_);
        QVERIFY(file.ok());
        char buffer[16];
        bool stop = false;
        const CancelScope scope([&stop] { return stop; });
        QVERIFY((*file)->readAt(0, std::span(buffer, sizeof buffer)).ok());
        stop = true;
        auto refused = (*file)->readAt(0, std::span(buffer, sizeof buffer));
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().kind, ErrorKind::Cancelled);
    }

    void readEverythingOpensPartitionsAndFilesystems()
    {
        // A GPT disk in qcow2: FAT32 in p1, ext4 in p2. Nothing expanded: the filter's read of
        // everything opens both partitions and lists their filesystems whole.
        auto disk = inspect(test::dataPath(QStringLiteral("images/gpt.v3.qcow2")));
        QVERIFY(disk.ok());
        TreeLoader loader;
        loader.load(disk->container, disk->inspection.spec);
        QVERIFY(waitIdle(loader));
        QCOMPARE(find(loader.tree(), "README.TXT"), -1);
        const int32_t p2 = find(loader.tree(), "p2");
        QVERIFY(p2 > 0);
        QVERIFY(loader.canExpand(p2));
        loader.readEverything(0);
        QVERIFY(waitIdle(loader));
        QVERIFY(find(loader.tree(), "README.TXT") > 0);
        QVERIFY(find(loader.tree(), "deep.txt") > 0); // in a folder nobody expanded
        QVERIFY(!loader.canExpand(p2));
    }

    void nestedArchivesOnlyAsDeepAsAsked()
    {
        test::writeFile(dir_, QStringLiteral("n/inner.txt"), "inner\n");
        const QString inner = dir_.filePath(QStringLiteral("n/inner.zip"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-a"), QStringLiteral("-cf"), inner, QStringLiteral("-C"), dir_.filePath(QStringLiteral("n")), QStringLiteral("inner.txt")}).exitCode, 0);
        const QString outer = dir_.filePath(QStringLiteral("outer.tar"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-cf"), outer, QStringLiteral("-C"), dir_.filePath(QStringLiteral("n")), QStringLiteral("inner.zip")}).exitCode, 0);
        auto opened = inspect(outer);
        QVERIFY(opened.ok());
        TreeLoader loader;
        loader.load(opened->container, outer);
        QVERIFY(waitIdle(loader));
        loader.readEverything(0);
        QVERIFY(waitIdle(loader));
        QCOMPARE(find(loader.tree(), "inner.txt"), -1); // depth 0: archives inside stay closed
        loader.readEverything(1);
        QVERIFY(waitIdle(loader));
        QVERIFY(find(loader.tree(), "inner.txt") > 0);
    }

    // The filter's reading of everything: 30 .gz members in a tar with 200 other files. With
    // nested archives allowed, every member is opened, one at a time (a thousand at once filled
    // the pool), and each node is looked at once, not once per batch of rows (quadratic).
    void filterOpensNestedOneAtATimeAndLooksAtEachNodeOnce()
    {
        QDir(dir_.path()).mkpath(QStringLiteral("many"));
        QStringList names;
        for (int i = 0; i < 200; ++i) {
            const QString name = QStringLiteral("plain%1.txt").arg(i);
            test::writeFile(dir_, QStringLiteral("many/") + name, QByteArray::number(i));
            names << name;
        }
        for (int i = 0; i < 30; ++i) {
            const QString name = QStringLiteral("member%1.gz").arg(i);
            auto gz = test::run(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("echo member %1 | gzip -c > '%2'").arg(i).arg(dir_.filePath(QStringLiteral("many/") + name))});
            QCOMPARE(gz.exitCode, 0);
            names << name;
        }
        const QString tar = dir_.filePath(QStringLiteral("many.tar"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), QStringList{QStringLiteral("-cf"), tar, QStringLiteral("-C"), dir_.filePath(QStringLiteral("many"))} + names).exitCode, 0);
        auto opened = inspect(tar);
        QVERIFY(opened.ok());
        TreeLoader loader;
        loader.load(opened->container, tar);
        QVERIFY(waitIdle(loader));
        const int32_t listed = loader.tree().size();
        loader.readEverything(0); // the default: nested archives stay closed
        QVERIFY(waitIdle(loader));
        QCOMPARE(loader.tree().layerCount(), 1);
        QCOMPARE(loader.mostFilterOpensAtOnce(), 0);
        loader.readEverything(1);
        QVERIFY(waitIdle(loader));
        QCOMPARE(loader.tree().layerCount(), 31);
        QVERIFY(find(loader.tree(), "member29") > 0);
        QCOMPARE(loader.mostFilterOpensAtOnce(), 1);
        // Two reads of everything over a tree that grew by 30 layers of one entry each: each
        // node is examined at most once per read of everything.
        QVERIFY2(loader.nodesExamined() <= uint64_t(2 * loader.tree().size()),
                 qPrintable(QStringLiteral("%1 nodes examined for %2 listed").arg(loader.nodesExamined()).arg(listed)));
    }

    // A nested open in the first file answers only after a second file was loaded (a gate holds
    // it): the late container must not become a layer of the second file's tree. Without the
    // loader's generation check it does (a second layer appears), which this test sees.
    void aNewFileDropsTheOldResults()
    {
        struct GatedContainer : Container {
            std::promise<void> gate;
            std::shared_future<void> released = gate.get_future().share();
            std::atomic<bool> entered{false};
            std::atomic<bool> answered{false};
            QByteArray image;
            SourcePtr bytes = std::make_shared<MemorySource>(QByteArray(), QStringLiteral("gated"));
            QString formatName() const override { return QStringLiteral("gated"); }
            Result<void> list(const EntrySink &sink) override
            {
                Entry inner;
                inner.path = "inner.qcow2";
                inner.type = EntryType::File;
                inner.size = uint64_t(image.size());
                sink(inner);
                return {};
            }
            Result<SourcePtr> open(const Entry &) override
            {
                entered = true;
                released.wait();
                answered = true;
                return SourcePtr(std::make_shared<MemorySource>(image, QStringLiteral("inner.qcow2")));
            }
            QJsonObject info() const override { return {}; }
            const SourcePtr &source() const override { return bytes; }
        };
        const QString qcow2 = test::dataPath(QStringLiteral("images/gpt.v3.qcow2"));
        auto gated = std::make_shared<GatedContainer>();
        QFile image(qcow2);
        QVERIFY(image.open(QIODevice::ReadOnly));
        gated->image = image.readAll();
        auto small = inspect(qcow2);
        QVERIFY(small.ok());
        TreeLoader loader;
        loader.load(gated, QStringLiteral("gated.bin"));
        QVERIFY(waitIdle(loader));
        const int32_t inner = find(loader.tree(), "inner.qcow2");
        QVERIFY(inner > 0);
        loader.expand(inner);
        for (int i = 0; i < 6000 && !gated->entered; ++i)
            QThread::msleep(1); // the nested open is under way, held at the gate
        QVERIFY(gated->entered.load());
        loader.load(small->container, small->inspection.spec);
        for (int i = 0; i < 600 && find(loader.tree(), "p1") < 0; ++i)
            QTest::qWait(10); // the second file's listing, on its own
        QVERIFY(find(loader.tree(), "p1") > 0);
        gated->gate.set_value(); // now the first file's nested open answers, late
        for (int i = 0; i < 6000 && !gated->answered; ++i)
            QThread::msleep(1);
        QVERIFY(gated->answered.load());
        for (int i = 0; i < 100; ++i) // what the late answer posts is delivered
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        QVERIFY(waitIdle(loader));
        QCOMPARE(loader.tree().layerCount(), 1);
        QVERIFY(find(loader.tree(), "p1") > 0);
    }
};

QTEST_GUILESS_MAIN(TestTreeLoader)
#include "tst_tree_loader.moc"
