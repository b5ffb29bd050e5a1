// SPDX-License-Identifier: MIT
// The decode pool every decoder shares (codecs/decode_pool): a task that throws is that task's
// error, not std::terminate; a dropped task never runs; a wait is cancellable; threads start as
// tasks come and never exceed the pool's size; the memory budget bounds what a bzip2 stream
// plans ahead (counted: blocks on the pool at once). Run under ThreadSanitizer too (label tsan).

#include "codecs/bzip2_stream.h"
#include "codecs/decode_pool.h"
#include "io/cancel.h"
#include "io/memory_source.h"
#include "stream_read.h"
#include "test_files.h"

#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <latch>
#include <new>
#include <stdexcept>

using namespace asc;

class TestDecodePool : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void anExceptionIsTheTasksError()
    {
        DecodePool pool(2);
        auto oom = pool.submit([]() -> Result<void> { throw std::bad_alloc(); });
        auto thrown = pool.submit([]() -> Result<void> { throw std::runtime_error("broken table"); });
        auto failed = pool.submit([]() -> Result<void> { return Error::format(QStringLiteral("x.bz2"), 7, QStringLiteral("bad block")); });
        auto fine = pool.submit([]() -> Result<void> { return {}; });
        auto a = oom->wait();
        QVERIFY(!a);
        QCOMPARE(a.error().errnum, ENOMEM);
        auto b = thrown->wait();
        QVERIFY(!b);
        QVERIFY2(b.error().toString().contains(QStringLiteral("broken table")), qPrintable(b.error().toString()));
        auto c = failed->wait();
        QVERIFY(!c);
        QCOMPARE(c.error().offset, std::optional<uint64_t>(7));
        QVERIFY(fine->wait());
        QCOMPARE(fine->state(), DecodeTask::State::Finished);
    }

    void aDroppedTaskNeverRuns()
    {
        DecodePool pool(1);
        std::latch started(1), release(1);
        auto blocker = pool.submit([&]() -> Result<void> {
            started.count_down();
            release.wait();
            return {};
        });
        started.wait(); // the one thread is busy: the next task stays queued
        std::atomic<bool> ran{false};
        auto queued = pool.submit([&]() -> Result<void> {
            ran = true;
            return {};
        });
        queued->drop();
        QCOMPARE(queued->state(), DecodeTask::State::Dropped);
        blocker->drop(); // running: it runs to its end
        release.count_down();
        QVERIFY(blocker->wait());
        auto dropped = queued->wait();
        QVERIFY(!dropped);
        QCOMPARE(dropped.error().kind, ErrorKind::Cancelled);
        auto after = pool.submit([]() -> Result<void> { return {}; });
        QVERIFY(after->wait()); // the queue moved past the dropped task
        QVERIFY(!ran);
    }

    void aWaitStopsWhenAsked()
    {
        DecodePool pool(1);
        std::latch release(1);
        auto slow = pool.submit([&]() -> Result<void> {
            release.wait();
            return {};
        });
        std::atomic<bool> stop{true};
        {
            const CancelScope scope([&] { return stop.load(); });
            auto waited = slow->wait();
            QVERIFY(!waited);
            QCOMPARE(waited.error().kind, ErrorKind::Cancelled);
        }
        release.count_down();
        slow->join();
        QCOMPARE(slow->state(), DecodeTask::State::Finished);
    }

    void threadsStartAsTasksComeUpToTheSize()
    {
        DecodePool pool(3);
        QCOMPARE(pool.started(), size_t(0));
        QVERIFY(pool.submit([]() -> Result<void> { return {}; })->wait());
        QCOMPARE(pool.started(), size_t(1));
        std::latch busy(3), release(1);
        std::vector<DecodeHandle> tasks;
        for (int i = 0; i < 8; ++i)
            tasks.push_back(pool.submit([&, i]() -> Result<void> {
                if (i < 3) {
                    busy.count_down();
                    release.wait();
                }
                return {};
            }));
        busy.wait(); // three at once: three threads
        release.count_down();
        for (auto &t : tasks)
            QVERIFY(t->wait());
        QCOMPARE(pool.started(), size_t(3));
        QVERIFY(DecodePool::shared().threads() >= 2);
        QVERIFY(DecodePool::shared().threads() <= 16);
    }

    void theBudgetBoundsWhatADecoderPlansAhead()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("bzip2"));
        QTemporaryDir dir;
        const QByteArray text = test::seededBytes(1500000, 3).toBase64(); // 2 MB: 20 blocks of 100k
        const QString plain = test::writeFile(dir, QStringLiteral("plain"), text);
        const auto packed = test::run(QStringLiteral("bzip2"), {QStringLiteral("-1"), QStringLiteral("-c"), plain});
        QCOMPARE(packed.exitCode, 0);
        auto decode = [&](Bzip2Stream::Counts *counts) -> QByteArray {
            Bzip2Stream::Options options;
            options.threads = 4;
            Bzip2Stream stream(std::make_unique<SourceStream>(std::make_shared<MemorySource>(packed.out, QStringLiteral("t.bz2"))), QStringLiteral("t.bz2"),
                               options);
            auto out = test::readToEnd(stream);
            *counts = stream.counts();
            return out ? *out : QByteArray("failed");
        };
        Bzip2Stream::Counts free;
        QCOMPARE(decode(&free), text);
        QVERIFY2(free.mostInFlight >= 4, qPrintable(QString::number(free.mostInFlight)));
        QCOMPARE(DecodeBudget::shared().held(), uint64_t(0)); // all given back
        // The process's budget nearly spent elsewhere: one block at a time, the same bytes.
        DecodeBudget &budget = DecodeBudget::shared();
        auto elsewhere = budget.reserve(budget.capacity() - 1024, true);
        QVERIFY(elsewhere);
        Bzip2Stream::Counts tight;
        QCOMPARE(decode(&tight), text);
        QCOMPARE(tight.mostInFlight, size_t(1));
        QCOMPARE(tight.blocks, free.blocks);
        elsewhere.reset();
        QCOMPARE(budget.held(), uint64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestDecodePool)
#include "tst_decode_pool.moc"
