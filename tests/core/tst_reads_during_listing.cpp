// SPDX-License-Identifier: MIT
// A member opened while the first listing of its compressed tarball still runs (the window's
// preview while the tree loads) is read from a restart point that listing has already made — a
// gzip seek point, a bzip2 block, a zstd frame, an xz block — not from the archive's first byte,
// and gives tar's bytes. Counted: the lowest file offset the open reads, and its bytes. A member
// the points made so far do not reach is still read right (from the start).

#include "formats/archive/archive_container.h"
#include "io/file_source.h"
#include "test_files.h"

#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <future>

using namespace asc;

namespace {

// Notes the reads made while watched: the lowest offset and the bytes.
class WatchedSource final : public ByteSource {
public:
    explicit WatchedSource(SourcePtr inner)
        : inner_(std::move(inner))
    {
    }
    uint64_t size() const override { return inner_->size(); }
    QString name() const override { return inner_->name(); }
    std::optional<FileExtent> fileExtent(uint64_t offset) const override { return inner_->fileExtent(offset); } // its identity
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override
    {
        auto got = inner_->readAt(offset, buf);
        if (watching.load() && got) {
            bytes += *got;
            uint64_t low = lowest.load();
            while (offset < low && !lowest.compare_exchange_weak(low, offset)) {
            }
        }
        return got;
    }
    void watch()
    {
        bytes = 0;
        lowest = UINT64_MAX;
        watching = true;
    }

    mutable std::atomic<uint64_t> bytes{0};
    mutable std::atomic<uint64_t> lowest{UINT64_MAX};
    std::atomic<bool> watching{false};

private:
    SourcePtr inner_;
};

QByteArray readAll(const ByteSource &source)
{
    QByteArray bytes(qsizetype(source.size()), Qt::Uninitialized);
    auto got = source.readAt(0, std::span(bytes.data(), size_t(bytes.size())));
    return got ? bytes.left(qsizetype(*got)) : QByteArray("read failed: ") + got.error().toString().toUtf8();
}

} // namespace

class TestReadsDuringListing : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QTemporaryDir cache_;
    static constexpr int kFiles = 24; // 2 MiB each: 48 MiB decoded, gzip points every 8 MiB

    static QByteArray text(uint32_t seed) { return test::seededWords(2 << 20, seed); }
    static QString member(int i) { return QStringLiteral("d/f%1.txt").arg(i, 2, 10, QLatin1Char('0')); }

private Q_SLOTS:
    void initTestCase()
    {
        for (const char *tool : {"bsdtar", "gzip", "lbzip2", "xz", "pzstd"})
            ASC_REQUIRE_TOOL(QString::fromLatin1(tool));
        qputenv("ARCHIVESCOPE_INDEX_DIR", cache_.path().toLocal8Bit());
        QStringList names;
        for (int i = 0; i < kFiles; ++i) {
            test::writeFile(dir_, QStringLiteral("tree/") + member(i), text(uint32_t(i + 1)));
            names << member(i);
        }
        const QString tar = dir_.filePath(QStringLiteral("a.tar"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), QStringList{QStringLiteral("-cf"), tar, QStringLiteral("-C"), dir_.filePath(QStringLiteral("tree"))} + names).exitCode, 0);
        for (const auto &[program, suffix] : std::initializer_list<std::pair<const char *, const char *>>{
                 {"gzip -1", "gz"}, {"lbzip2 -n 2", "bz2"}, {"xz -1 -T2 --block-size=2MiB", "xz"}, {"pzstd -q -p 2", "zst"}}) {
            QStringList args = QString::fromLatin1(program).split(QLatin1Char(' '));
            const QString tool = args.takeFirst();
            const auto r = test::run(tool, args + QStringList{QStringLiteral("-c"), tar}, 600000);
            QCOMPARE(r.exitCode, 0);
            test::writeFile(dir_, QStringLiteral("a.tar.") + QString::fromLatin1(suffix), r.out);
        }
    }

    void aMemberListedIsReadFromAPointAlreadyMade_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::newRow("gzip") << QStringLiteral("gz");
        QTest::newRow("lbzip2") << QStringLiteral("bz2");
        QTest::newRow("xz, blocks") << QStringLiteral("xz");
        QTest::newRow("pzstd, frames") << QStringLiteral("zst");
    }

    void aMemberListedIsReadFromAPointAlreadyMade()
    {
        QFETCH(QString, suffix);
        const QString path = dir_.filePath(QStringLiteral("a.tar.") + suffix);
        auto file = FileSource::open(path);
        QVERIFY(file);
        auto watched = std::make_shared<WatchedSource>(*file);
        auto container = ArchiveContainer::open(watched, LibarchiveReader::Mode::Archives);
        QVERIFY2(container, qPrintable(container ? QString() : container.error().toString()));
        auto *archive = dynamic_cast<ArchiveContainer *>(container->get());
        QVERIFY(archive);
        QVERIFY(archive->indexable());
        QVERIFY(!archive->index()); // the first pass is the one below

        const QByteArray halfway = member(kFiles / 2).toUtf8(), last = member(kFiles - 1).toUtf8();
        Entry halfwayEntry, lastEntry;
        QByteArray early, front;
        uint64_t earlyBytes = 0, earlyLowest = 0;
        bool opened = false;
        auto listed = archive->list([&](const Entry &e) {
            if (e.path == halfway)
                halfwayEntry = e;
            if (e.path != last)
                return true;
            lastEntry = e;
            // The listing waits here, at its last member, while another thread opens one it
            // listed half an archive ago, and the member just listed (no point after it yet).
            watched->watch();
            auto read = std::async(std::launch::async, [&] {
                auto source = container->get()->open(halfwayEntry);
                return source ? readAll(**source) : source.error().toString().toUtf8();
            });
            early = read.get();
            watched->watching = false;
            earlyBytes = watched->bytes;
            earlyLowest = watched->lowest;
            auto atFront = std::async(std::launch::async, [&] {
                auto source = container->get()->open(lastEntry);
                return source ? readAll(**source) : source.error().toString().toUtf8();
            });
            front = atFront.get();
            opened = true;
            return true;
        });
        QVERIFY2(listed, qPrintable(listed ? QString() : listed.error().toString()));
        QVERIFY(opened);
        QCOMPARE(early, text(uint32_t(kFiles / 2 + 1)));
        QCOMPARE(front, text(uint32_t(kFiles)));
        // From a point near the middle of the file: nothing of its first quarter, and not the
        // whole first half again.
        const uint64_t size = watched->size();
        QVERIFY2(earlyLowest >= size / 4, qPrintable(QStringLiteral("read from offset %1 of %2").arg(earlyLowest).arg(size)));
        QVERIFY2(earlyBytes < size / 2, qPrintable(QStringLiteral("%1 bytes of %2").arg(earlyBytes).arg(size)));
        QVERIFY(archive->index()); // the pass went on to make the whole index
    }
};

QTEST_GUILESS_MAIN(TestReadsDuringListing)
#include "tst_reads_during_listing.moc"
