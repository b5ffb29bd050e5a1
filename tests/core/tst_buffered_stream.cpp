// SPDX-License-Identifier: MIT
// The consumer-side buffered stream: identical bytes for every capacity, and at most
// ceil(N/C)+1 source reads for N bytes read in small pieces.

#include "io/buffered_stream.h"
#include "io/counting_source.h"
#include "io/memory_source.h"
#include "test_files.h"

#include <QRandomGenerator>
#include <QTest>

using namespace asc;

class TestBufferedStream : public QObject {
    Q_OBJECT

    QByteArray content_ = test::seededBytes(3 * 1024 * 1024 + 17, 9);

private Q_SLOTS:
    void identicalBytes_data()
    {
        QTest::addColumn<int>("capacity");
        for (int c : {0, 1, 7, 4096, 1 << 20})
            QTest::addRow("capacity %d", c) << c;
    }

    void identicalBytes()
    {
        QFETCH(int, capacity);
        auto counting = std::make_shared<CountingSource>(std::make_shared<MemorySource>(content_));
        BufferedStream stream(counting, size_t(capacity));
        QRandomGenerator rng(123);
        QByteArray out;
        out.reserve(content_.size());
        char piece[300];
        // Small pieces, mixing read, peek and skip.
        while (!stream.atEnd()) {
            const size_t n = 1 + rng.bounded(299);
            switch (rng.bounded(4)) {
            case 0: {
                auto view = stream.peek(n);
                QVERIFY(view.ok());
                QCOMPARE(QByteArray(view->data(), qsizetype(view->size())), content_.mid(qsizetype(stream.position()), qsizetype(view->size())));
                const uint64_t at = stream.position();
                QVERIFY(stream.skip(view->size()).ok());
                QCOMPARE(stream.position(), at + view->size());
                out.append(content_.mid(qsizetype(at), qsizetype(view->size())));
                break;
            }
            default: {
                auto got = stream.read(std::span(piece, n));
                QVERIFY(got.ok());
                out.append(piece, qsizetype(*got));
            }
            }
        }
        QCOMPARE(out.size(), content_.size());
        QVERIFY(out == content_);
        QCOMPARE(stream.sourceBytes() >= uint64_t(content_.size()), true);
    }

    void readCountBound_data()
    {
        QTest::addColumn<int>("capacity");
        for (int c : {4096, 65536, 1 << 20})
            QTest::addRow("capacity %d", c) << c;
    }

    // Reads in pieces smaller than the capacity: ceil(N/C)+1 source reads at most.
    void readCountBound()
    {
        QFETCH(int, capacity);
        auto counting = std::make_shared<CountingSource>(std::make_shared<MemorySource>(content_));
        BufferedStream stream(counting, size_t(capacity));
        char piece[100];
        uint64_t total = 0;
        for (;;) {
            auto got = stream.read(std::span(piece, sizeof piece));
            QVERIFY(got.ok());
            if (*got == 0)
                break;
            total += *got;
        }
        QCOMPARE(total, uint64_t(content_.size()));
        const uint64_t bound = (total + uint64_t(capacity) - 1) / uint64_t(capacity) + 1;
        QVERIFY2(counting->reads() <= bound, qPrintable(QStringLiteral("%1 reads > %2").arg(counting->reads()).arg(bound)));
        QCOMPARE(stream.sourceReads(), counting->reads());
    }

    // Capacity 0: every read reaches the source (what a benchmark must be able to show).
    void unbufferedReadsEveryTime()
    {
        auto counting = std::make_shared<CountingSource>(std::make_shared<MemorySource>(content_));
        BufferedStream stream(counting, 0);
        char piece[10];
        for (int i = 0; i < 50; ++i)
            QCOMPARE(*stream.read(std::span(piece, sizeof piece)), size_t(10));
        QCOMPARE(counting->reads(), uint64_t(50));
    }

    // A read at least as big as the capacity goes straight into the caller's buffer.
    void largeReadBypassesBuffer()
    {
        auto counting = std::make_shared<CountingSource>(std::make_shared<MemorySource>(content_));
        BufferedStream stream(counting, 4096);
        QByteArray big(100000, 0);
        QCOMPARE(*stream.read(std::span(big.data(), size_t(big.size()))), size_t(100000));
        QCOMPARE(counting->reads(), uint64_t(1));
        QVERIFY(big == content_.left(100000));
    }

    void errorsAtEnd()
    {
        BufferedStream stream(std::make_shared<MemorySource>(QByteArray("abc"), QStringLiteral("three")), 2);
        char buf[10];
        auto exact = stream.readExact(std::span(buf, 10));
        QVERIFY(!exact.ok());
        QVERIFY(exact.error().toString().contains(QStringLiteral("three")));
        QVERIFY(exact.error().toString().contains(QStringLiteral("offset 0")));
        BufferedStream skipper(std::make_shared<MemorySource>(QByteArray("abc")), 2);
        QVERIFY(!skipper.skip(10).ok());
    }
};

QTEST_GUILESS_MAIN(TestBufferedStream)
#include "tst_buffered_stream.moc"
