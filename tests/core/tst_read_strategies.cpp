// SPDX-License-Identifier: MIT
// Every read strategy returns exactly the target's bytes (checksummed through the consumer) at
// 4 KiB, 64 KiB, 1 MiB and a buffer larger than the file, on a plain file of 10 MiB + 7 and on
// an archive entry; syscall counts follow the buffer size; cancel stops within one buffer.

#include "bench/bench_runner.h"
#include "sandbox/proc_io.h"
#include "bench/read_strategy.h"
#include "io/memory_source.h"
#include "codecs/gzip_pieces.h"
#include "io/units.h"
#include "test_files.h"

#include <QCryptographicHash>
#include <QDir>
#include <QTest>

using namespace asc;

class TestReadStrategies : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QByteArray content_;
    QString path_;

    static QByteArray hashOf(const ReadStrategy &strategy, const ReadTarget &target, size_t buffer, ReadOutcome *outcome = nullptr)
    {
        QCryptographicHash hash(QCryptographicHash::Sha256);
        auto result = strategy.run(target, buffer, CancelFlag{}, [&](std::span<const char> bytes) {
            hash.addData(QByteArrayView(bytes.data(), qsizetype(bytes.size())));
        });
        if (!result)
            return "error: " + result.error().toString().toUtf8();
        if (outcome)
            *outcome = *result;
        return hash.result().toHex();
    }

private Q_SLOTS:
    void initTestCase()
    {
        content_ = test::seededBytes(10 * 1024 * 1024 + 7, 17);
        path_ = test::writeFile(dir_, QStringLiteral("data.bin"), content_);
    }

    void everyStrategyReturnsTheBytes_data()
    {
        QTest::addColumn<QString>("strategy");
        QTest::addColumn<qulonglong>("buffer");
        // Format-level strategies (pxar) have their own tests; the copy ones are given an output dir.
        for (const auto &s : readStrategies())
            if (s->group() != QLatin1String("pxar") && s->group() != QLatin1String("decompression"))
                for (qulonglong buffer : {4096ULL, 65536ULL, 1048576ULL, 16ULL * 1048576})
                    QTest::addRow("%s %llu", qPrintable(s->name()), buffer) << s->name() << buffer;
    }

    void everyStrategyReturnsTheBytes()
    {
        QFETCH(QString, strategy);
        QFETCH(qulonglong, buffer);
        auto target = openReadTarget(path_);
        QVERIFY(target.ok());
        QVERIFY(!target->target.filePath.isEmpty());
        QTemporaryDir output;
        target->target.outputDir = output.path();
        StrategyPtr s = findReadStrategy(strategy);
        QVERIFY(s);
        QVERIFY(s->notApplicable(target->target).isEmpty());
        ReadOutcome outcome;
        QCOMPARE(hashOf(*s, target->target, size_t(buffer), &outcome), test::sha256(content_));
        QCOMPARE(outcome.bytes, uint64_t(content_.size()));
        QCOMPARE(QDir(output.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList()); // copies removed
        // No strategy silently ignores its buffer: N-byte reads over S bytes make about S/N calls
        // (the library-buffered ones are checked for what the kernel counted, see below).
        const uint64_t expected = (uint64_t(content_.size()) + buffer - 1) / buffer;
        if (strategy == QLatin1String("read") || strategy == QLatin1String("pread") || strategy == QLatin1String("source") ||
            strategy.startsWith(QLatin1String("uring")) || strategy.startsWith(QLatin1String("buffered-stream")))
            QVERIFY2(outcome.syscalls >= expected && outcome.syscalls <= expected + 1,
                     qPrintable(QStringLiteral("%1 calls for %2 expected").arg(outcome.syscalls).arg(expected)));
    }

    // What a strategy says it called is what the kernel counted on its thread (/proc/thread-self/io
    // syscr), for every strategy that reads with read-type calls on the calling thread. Not here:
    // mmap (page faults, no read calls: the kernel must count none), io_uring (submissions are
    // not read calls: checked against S/N above), copy (its writes count) and pxar (own tests).
    void readCallsMatchTheKernel_data()
    {
        QTest::addColumn<QString>("strategy");
        for (const char *name : {"read", "pread", "direct", "fadvise-seq", "qfile", "source", "buffered-stream-copy", "buffered-stream-zero-copy", "mmap"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    void readCallsMatchTheKernel()
    {
        QFETCH(QString, strategy);
        auto target = openReadTarget(path_);
        QVERIFY(target.ok());
        StrategyPtr s = findReadStrategy(strategy);
        QVERIFY(s);
        for (size_t buffer : {size_t(4096), size_t(65536), size_t(1) << 20}) {
            const auto before = readProcIo(ProcIoScope::Thread);
            ReadOutcome outcome;
            QCOMPARE(hashOf(*s, target->target, buffer, &outcome), test::sha256(content_));
            const auto after = readProcIo(ProcIoScope::Thread);
            QVERIFY2(before && after, "/proc/thread-self/io is needed to check read calls");
            const qint64 kernel = qint64(after->syscr - before->syscr);
            if (strategy == QLatin1String("mmap")) {
                QVERIFY2(kernel <= 2, qPrintable(QStringLiteral("mmap made %1 read calls").arg(kernel)));
                continue;
            }
            // Opening the file may read a little (QFile reads ahead of its first request): a few
            // calls of slack, far below a miscount (a strategy counting its requests, not its calls).
            QVERIFY2(qAbs(kernel - qint64(outcome.syscalls)) <= 8,
                     qPrintable(QStringLiteral("%1 at %2: strategy says %3 read calls, kernel counted %4").arg(strategy).arg(buffer).arg(outcome.syscalls).arg(kernel)));
        }
    }

    // stdio with setvbuf(N) makes about S/N reads; stdio-default does not follow N (its hidden
    // buffer shows as a constant call count), as the kernel's own counters tell.
    void libraryBuffersAreVisible()
    {
        auto target = openReadTarget(path_);
        ReadOutcome small, large, defaultSmall, defaultLarge;
        hashOf(*findReadStrategy(QStringLiteral("stdio")), target->target, 65536, &small);
        hashOf(*findReadStrategy(QStringLiteral("stdio")), target->target, 1 << 20, &large);
        hashOf(*findReadStrategy(QStringLiteral("stdio-default")), target->target, 65536, &defaultSmall);
        hashOf(*findReadStrategy(QStringLiteral("stdio-default")), target->target, 1 << 20, &defaultLarge);
        if (small.syscalls == 0)
            QSKIP("/proc/thread-self/io is not available here");
        QVERIFY2(small.syscalls > 8 * large.syscalls, qPrintable(QStringLiteral("%1 vs %2").arg(small.syscalls).arg(large.syscalls)));
        QVERIFY(qAbs(qint64(defaultSmall.syscalls) - qint64(defaultLarge.syscalls)) <= 2);
    }

    void insideAnArchive()
    {
        const QString tar = dir_.filePath(QStringLiteral("t.tar.gz"));
        auto made = test::run(QStringLiteral("bsdtar"), {QStringLiteral("-czf"), tar, QStringLiteral("-C"), dir_.path(), QStringLiteral("data.bin")});
        QCOMPARE(made.exitCode, 0);
        auto target = openReadTarget(tar + QStringLiteral("!/data.bin"));
        QVERIFY(target.ok());
        QVERIFY(target->target.filePath.isEmpty());
        QCOMPARE(target->cachePath, tar);
        for (const auto &s : readStrategies()) {
            const QString why = s->notApplicable(target->target);
            if (s->group() == QLatin1String("pxar") || s->group() == QLatin1String("write") || s->group() == QLatin1String("decompression")) {
                QVERIFY2(!why.isEmpty(), qPrintable(s->name())); // not a pxar archive; no output dir; not compressed
                continue;
            }
            if (s->group() == QLatin1String("plain file") && s->name() != QLatin1String("source")) {
                QVERIFY2(why.contains(QStringLiteral("not applicable")), qPrintable(s->name()));
                continue;
            }
            QVERIFY2(why.isEmpty(), qPrintable(s->name()));
            QCOMPARE(hashOf(*s, target->target, 65536), test::sha256(content_));
        }
    }

    // The decoder strategies (zlib, ISA-L, libdeflate, xz one thread and many, zstd, libarchive's
    // filters) each return exactly the original bytes of a file compressed by the reference tool,
    // refuse the other formats, make about S/N reads of N bytes, and stop within one buffer.
    void decoderStrategies()
    {
        const QByteArray original = content_.left(2 << 20) + QByteArray("compressible text ").repeated(200000);
        const QString plain = test::writeFile(dir_, QStringLiteral("plain"), original);
        struct Made {
            QString program;
            QStringList args;
            QStringList strategies;
        };
        const QList<Made> made = {
            {QStringLiteral("pigz"), {QStringLiteral("-c"), plain}, {QStringLiteral("inflate-zlib"), QStringLiteral("inflate-isal"), QStringLiteral("inflate-isal-pieces"), QStringLiteral("inflate-libdeflate"), QStringLiteral("libarchive-filter")}},
            {QStringLiteral("xz"), {QStringLiteral("-T2"), QStringLiteral("--block-size=1MiB"), QStringLiteral("-c"), plain}, {QStringLiteral("xz-1thread"), QStringLiteral("xz-mt"), QStringLiteral("libarchive-filter")}},
            {QStringLiteral("zstd"), {QStringLiteral("-q"), QStringLiteral("-c"), plain}, {QStringLiteral("zstd"), QStringLiteral("libarchive-filter")}},
            {QStringLiteral("bzip2"), {QStringLiteral("-1"), QStringLiteral("-c"), plain}, {QStringLiteral("bzip2-1thread"), QStringLiteral("bzip2-mt"), QStringLiteral("libarchive-filter")}},
            {QStringLiteral("lz4"), {QStringLiteral("-q"), QStringLiteral("-c"), plain}, {QStringLiteral("lz4"), QStringLiteral("libarchive-filter")}},
        };
        for (const Made &m : made) {
            ASC_REQUIRE_TOOL(m.program);
            auto run = test::run(m.program, m.args);
            QCOMPARE(run.exitCode, 0);
            const QString file = test::writeFile(dir_, QStringLiteral("packed.") + m.program, run.out);
            auto target = openReadTarget(file);
            QVERIFY(target.ok());
            for (const auto &s : readStrategies()) {
                if (s->group() != QLatin1String("decompression"))
                    continue;
                const QString why = s->notApplicable(target->target);
                QVERIFY2(why.isEmpty() == m.strategies.contains(s->name()), qPrintable(m.program + QLatin1Char(' ') + s->name() + QLatin1Char(' ') + why));
                if (!why.isEmpty())
                    continue;
                QCOMPARE(s->expectedBytes(target->target), uint64_t(original.size()));
                for (size_t buffer : {size_t(4096), size_t(1 << 20)}) {
                    ReadOutcome outcome;
                    QCOMPARE(hashOf(*s, target->target, buffer, &outcome), test::sha256(original));
                    QCOMPARE(outcome.bytes, uint64_t(original.size()));
                    // Pieces are cut from regions of a few MiB, read whole, not N bytes at a time.
                    const size_t unit = s->name() == QLatin1String("inflate-isal-pieces") ? std::max(buffer, GzipPieces::Options{}.region) : buffer;
                    const uint64_t reads = (uint64_t(run.out.size()) + unit - 1) / unit;
                    QVERIFY2(outcome.syscalls >= reads && outcome.syscalls <= reads + 2,
                             qPrintable(QStringLiteral("%1 at %2: %3 reads, %4 expected").arg(s->name()).arg(buffer).arg(outcome.syscalls).arg(reads)));
                }
                CancelFlag cancel;
                int consumed = 0;
                auto cancelled = s->run(target->target, 65536, cancel, [&](std::span<const char>) {
                    ++consumed;
                    cancel.cancel();
                });
                QVERIFY2(!cancelled.ok() && cancelled.error().kind == ErrorKind::Cancelled, qPrintable(s->name()));
                QCOMPARE(consumed, 1);
            }
        }
    }

    // The pxar strategies read every entry and payload of an archive and say how much that is.
    void pxarStrategies()
    {
        auto target = openReadTarget(QStringLiteral(TEST_DATA_DIR "/pxar/basic.pxar"));
        QVERIFY(target.ok());
        for (const char *name : {"pxar-decoder-sync", "pxar-decoder-async", "pxar-accessor-sync", "pxar-accessor-async"}) {
            StrategyPtr s = findReadStrategy(QString::fromLatin1(name));
            QVERIFY(s->notApplicable(target->target).isEmpty());
            for (size_t buffer : {size_t(0), size_t(4096), size_t(1 << 20)}) {
                uint64_t payloadBytes = 0;
                auto outcome = s->run(target->target, buffer, CancelFlag{}, [&](std::span<const char> b) { payloadBytes += b.size(); });
                QVERIFY2(outcome.ok(), name);
                QCOMPARE(outcome->bytes, s->expectedBytes(target->target));
                QVERIFY(payloadBytes > 500000); // basic.pxar holds about 590 KB of file content
            }
        }
        auto split = openReadTarget(QStringLiteral(TEST_DATA_DIR "/pxar/basic.mpxar"));
        QVERIFY(split.ok());
        QCOMPARE(findReadStrategy(QStringLiteral("pxar-decoder-sync"))->expectedBytes(split->target), quint64(11296 + 594322));
    }

    // Cancel lands within one buffer read: after the first buffer is consumed, nothing more is.
    void cancelStopsWithinOneBuffer()
    {
        auto target = openReadTarget(path_);
        QTemporaryDir output;
        target->target.outputDir = output.path();
        for (const auto &s : readStrategies()) {
            if (s->group() == QLatin1String("pxar") || s->group() == QLatin1String("decompression"))
                continue; // their own tests
            CancelFlag cancel;
            int consumed = 0;
            auto result = s->run(target->target, 65536, cancel, [&](std::span<const char>) {
                ++consumed;
                cancel.cancel();
            });
            QVERIFY2(!result.ok() && result.error().kind == ErrorKind::Cancelled, qPrintable(s->name()));
            QVERIFY2(consumed == 1, qPrintable(QStringLiteral("%1 consumed %2 buffers after cancel").arg(s->name()).arg(consumed)));
        }
    }

    void runnerCancelsAndReportsProgress()
    {
        auto target = openReadTarget(path_);
        BenchConfig config;
        config.spec = path_;
        config.strategies = {QStringLiteral("read"), QStringLiteral("pread")};
        config.buffers = {4096, 65536};
        config.runs = 3;
        CancelFlag cancel;
        int progressCalls = 0;
        BenchCallbacks callbacks;
        callbacks.progress = [&](int done, int, const QString &) {
            ++progressCalls;
            if (done == 3)
                cancel.cancel();
        };
        auto result = runBench(config, *target, cancel, callbacks);
        QVERIFY(!result.ok());
        QCOMPARE(result.error().kind, ErrorKind::Cancelled);
        QCOMPARE(progressCalls, 4);

        CancelFlag fresh;
        std::vector<BenchPoint> live;
        callbacks.progress = {};
        callbacks.point = [&](const BenchPoint &p) { live.push_back(p); };
        auto full = runBench(config, *target, fresh, callbacks);
        QVERIFY(full.ok());
        QCOMPARE(int(full->points.size()), 4);
        QCOMPARE(int(live.size()), 4); // every point was reported as it finished
        for (const BenchPoint &p : full->points) {
            QCOMPARE(int(p.runs.size()), 3);
            QVERIFY(p.mibps.min <= p.mibps.median && p.mibps.median <= p.mibps.max);
            QVERIFY(p.mibps.mean > 0);
        }
    }

    void unknownAndInapplicableStrategies()
    {
        auto target = openReadTarget(path_);
        auto unknown = selectStrategies({QStringLiteral("teleport")}, target->target);
        QVERIFY(!unknown.ok());
        QVERIFY(unknown.error().message.contains(QStringLiteral("teleport")));
        ReadTarget memory{QStringLiteral("mem"), std::make_shared<MemorySource>(content_), {}, {}};
        auto selection = selectStrategies({QStringLiteral("mmap"), QStringLiteral("source")}, memory);
        QVERIFY(selection.ok());
        QCOMPARE(int(selection->strategies.size()), 1);
        QVERIFY(selection->skipped.first().startsWith(QStringLiteral("mmap: not applicable")));
    }

    // One unit rule for every size shown: the largest unit the size reaches.
    void sizeLabels()
    {
        QCOMPARE(sizeLabel(0), QStringLiteral("0 B"));
        QCOMPARE(sizeLabel(1023), QStringLiteral("1023 B"));
        QCOMPARE(sizeLabel(4096), QStringLiteral("4 KiB"));
        QCOMPARE(sizeLabel(1536), QStringLiteral("1.5 KiB"));
        QCOMPARE(sizeLabel(16 << 20), QStringLiteral("16 MiB"));
        QCOMPARE(sizeLabel(344576000), QStringLiteral("328.6 MiB")); // was "336500 KiB"
        QCOMPARE(sizeLabel(3ULL << 40), QStringLiteral("3 TiB"));
    }

    void sizeLists()
    {
        QCOMPARE(*parseSizeList(QStringLiteral("4K:16M")), std::vector<uint64_t>({4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288,
                                                                                  1048576, 2097152, 4194304, 8388608, 16777216}));
        QCOMPARE(*parseSizeList(QStringLiteral("64K,1M")), std::vector<uint64_t>({65536, 1048576}));
        QVERIFY(!parseSizeList(QStringLiteral("16M:4K")).ok());
        QVERIFY(!parseSizeList(QStringLiteral("lots")).ok());
    }
};

QTEST_GUILESS_MAIN(TestReadStrategies)
#include "tst_read_strategies.moc"
