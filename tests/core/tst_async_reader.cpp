// SPDX-License-Identifier: MIT
// Async reads: io_uring and the thread pool give identical bytes, keep several reads in flight,
// and report short reads, EINTR and EIO correctly.

#include "io/async_reader.h"
#include "io/file_source.h"
#include "io/memory_source.h"
#include "test_files.h"

#include <QRandomGenerator>
#include <QTest>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <mutex>

using namespace asc;

static AsyncOptions optionsFor(int depth, AsyncBackend backend)
{
    AsyncOptions options;
    options.queueDepth = depth;
    options.backend = backend;
    return options;
}

// A source that fails at a chosen offset, returns short reads, and can hold readers until N are
// inside readAt at once (to observe concurrency).
class FaultySource final : public ByteSource {
public:
    FaultySource(QByteArray bytes, uint64_t failAt, int errnum)
        : bytes_(std::move(bytes)),
          failAt_(failAt),
          errnum_(errnum) {}
    uint64_t size() const override { return uint64_t(bytes_.size()); }
    QString name() const override { return QStringLiteral("faulty"); }
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override
    {
        const int now = ++active_;
        int seen = peak_.load();
        while (now > seen && !peak_.compare_exchange_weak(seen, now)) {
        }
        if (waitFor_ > 1) {
            std::unique_lock lock(mutex_);
            ++arrived_;
            cv_.notify_all();
            cv_.wait_for(lock, std::chrono::seconds(5), [this] { return arrived_ >= waitFor_; });
        }
        --active_;
        if (offset <= failAt_ && failAt_ < offset + buf.size())
            return Error::system(name(), QStringLiteral("read"), errnum_, failAt_);
        const size_t n = offset >= size() ? 0 : size_t(std::min<uint64_t>(buf.size(), size() - offset));
        memcpy(buf.data(), bytes_.constData() + offset, n);
        return n;
    }
    void holdUntil(int readers) { waitFor_ = readers; }
    int peak() const { return peak_.load(); }

private:
    QByteArray bytes_;
    uint64_t failAt_;
    int errnum_;
    int waitFor_ = 0;
    mutable std::mutex mutex_;
    mutable std::condition_variable cv_;
    mutable int arrived_ = 0;
    mutable std::atomic<int> active_{0};
    mutable std::atomic<int> peak_{0};
};

class TestAsyncReader : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QByteArray content_;
    QString path_;

    static QByteArray readAll(AsyncReader &reader, uint64_t size, size_t chunk)
    {
        QByteArray out(qsizetype(size), 0);
        for (uint64_t at = 0; at < size; at += chunk) {
            const size_t n = size_t(std::min<uint64_t>(chunk, size - at));
            reader.readAt(at, std::span(out.data() + at, n), [at, n](Result<size_t> r) {
                QVERIFY(r.ok());
                QCOMPARE(*r, n);
                Q_UNUSED(at);
            });
        }
        reader.drain();
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        content_ = test::seededBytes(5 * 1024 * 1024 + 321, 5);
        path_ = test::writeFile(dir_, QStringLiteral("data"), content_);
    }

    void identicalBytes_data()
    {
        QTest::addColumn<int>("backend");
        QTest::addColumn<int>("depth");
        QTest::addColumn<int>("mode"); // io_uring: 0 inline, 1 kernel polling thread, 2 reads offloaded to workers
        for (int depth : {1, 4, 16}) {
            QTest::addRow("io_uring qd%d", depth) << int(AsyncBackend::IoUring) << depth << 0;
            QTest::addRow("io_uring polling qd%d", depth) << int(AsyncBackend::IoUring) << depth << 1;
            QTest::addRow("io_uring offloaded qd%d", depth) << int(AsyncBackend::IoUring) << depth << 2;
            QTest::addRow("thread pool qd%d", depth) << int(AsyncBackend::ThreadPool) << depth << 0;
        }
    }

    void identicalBytes()
    {
        QFETCH(int, backend);
        QFETCH(int, depth);
        QFETCH(int, mode);
        auto file = FileSource::open(path_).value();
        AsyncOptions options;
        options.queueDepth = depth;
        options.backend = AsyncBackend(backend);
        options.kernelPolling = mode == 1;
        options.offloadReads = mode == 2;
        auto reader = AsyncReader::create(file, options);
        QVERIFY2(reader.ok(), qPrintable(reader.ok() ? QString() : reader.error().toString()));
        QCOMPARE((*reader)->backendName(), backend == int(AsyncBackend::IoUring) ? QStringLiteral("io_uring") : QStringLiteral("thread pool"));
        if (mode == 1)
            QVERIFY((*reader)->options().kernelPolling); // the kernel accepted the polling ring
        for (size_t chunk : {size_t(4096), size_t(65536 + 3), size_t(1 << 20)})
            QVERIFY(readAll(**reader, file->size(), chunk) == content_);
        // Reads past the end complete with 0 bytes; reads across it are clamped.
        char buf[100];
        auto future = (*reader)->read(file->size() - 10, std::span(buf, 100));
        QCOMPARE(*(*reader)->await(future), size_t(10));
        QCOMPARE(QByteArray(buf, 10), content_.right(10));
        QCOMPARE(*(*reader)->await((*reader)->read(file->size() + 1, std::span(buf, 100))), size_t(0));
    }

    void keepsSeveralInFlight()
    {
        auto file = FileSource::open(path_).value();
        auto reader = AsyncReader::create(file, optionsFor(8, AsyncBackend::IoUring));
        QVERIFY(reader.ok());
        std::vector<QByteArray> buffers(8, QByteArray(65536, 0));
        for (int i = 0; i < 8; ++i)
            (*reader)->readAt(uint64_t(i) * 65536, std::span(buffers[size_t(i)].data(), 65536), [](Result<size_t>) {});
        QCOMPARE((*reader)->inFlight(), 8); // all eight submitted to the kernel before any was reaped
        (*reader)->drain();
        QCOMPARE((*reader)->peakInFlight(), 8);
        for (int i = 0; i < 8; ++i)
            QVERIFY(buffers[size_t(i)] == content_.mid(i * 65536, 65536));
    }

    // The pool really runs reads at the same time: four readers meet inside readAt.
    void threadPoolRunsConcurrently()
    {
        auto faulty = std::make_shared<FaultySource>(content_, UINT64_MAX, 0);
        faulty->holdUntil(4);
        auto reader = AsyncReader::create(faulty, optionsFor(4, AsyncBackend::ThreadPool));
        QVERIFY(reader.ok());
        QVERIFY(readAll(**reader, faulty->size(), 1 << 20) == content_);
        QCOMPARE(faulty->peak(), 4);
    }

    // Short reads and EINTR from the kernel are continued; EIO is reported with file and offset;
    // the same with a polling kernel thread and with reads offloaded to io_uring's workers.
    void uringFaults_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addRow("inline") << 0;
        QTest::addRow("polling") << 1;
        QTest::addRow("offloaded") << 2;
    }

    void uringFaults()
    {
        QFETCH(int, mode);
        auto file = FileSource::open(path_).value();
        const uint64_t badOffset = 3 * 65536;
        std::atomic<int> interrupted{0};
        AsyncOptions options;
        options.queueDepth = 4;
        options.backend = AsyncBackend::IoUring;
        options.kernelPolling = mode == 1;
        options.offloadReads = mode == 2;
        options.completionFilter = [&](uint64_t offset, int result) {
            if (offset % 65536 == 3000 && interrupted++ < 3)
                return -EINTR;
            return std::min(result, 1000); // every read comes back short
        };
        auto reader = AsyncReader::create(file, options);
        QVERIFY(reader.ok());
        QVERIFY(readAll(**reader, file->size(), 65536) == content_);
        QVERIFY(interrupted.load() >= 3);

        options.completionFilter = [&](uint64_t offset, int result) { return offset == badOffset ? -EIO : result; };
        auto failing = AsyncReader::create(file, options);
        QVERIFY(failing.ok());
        QByteArray out(65536 * 6, 0);
        std::vector<std::optional<Result<size_t>>> results(6);
        for (int i = 0; i < 6; ++i)
            (*failing)->readAt(uint64_t(i) * 65536, std::span(out.data() + i * 65536, 65536),
                               [&results, i](Result<size_t> r) { results[size_t(i)] = std::move(r); });
        (*failing)->drain();
        for (int i = 0; i < 6; ++i) {
            QVERIFY(results[size_t(i)].has_value());
            if (uint64_t(i) * 65536 == badOffset) {
                QVERIFY(!results[size_t(i)]->ok());
                const QString text = results[size_t(i)]->error().toString();
                QVERIFY2(text.contains(path_) && text.contains(QStringLiteral("offset %1").arg(badOffset)) &&
                             text.contains(QStringLiteral("Input/output error")),
                         qPrintable(text));
            } else {
                QVERIFY(results[size_t(i)]->ok());
            }
        }
    }

    void threadPoolFaults()
    {
        auto faulty = std::make_shared<FaultySource>(content_, 200000, EIO);
        auto reader = AsyncReader::create(faulty, optionsFor(4, AsyncBackend::Auto));
        QVERIFY(reader.ok());
        QCOMPARE((*reader)->backendName(), QStringLiteral("thread pool")); // not a file: io_uring cannot read it
        QVERIFY(!(*reader)->fallbackReason().isEmpty());
        QByteArray buf(65536, 0);
        auto good = (*reader)->read(0, std::span(buf.data(), 65536));
        QVERIFY((*reader)->await(good).ok());
        auto bad = (*reader)->read(196608, std::span(buf.data(), 65536));
        auto result = (*reader)->await(bad);
        QVERIFY(!result.ok());
        QVERIFY(result.error().toString().contains(QStringLiteral("offset 200000")));
    }
};

QTEST_GUILESS_MAIN(TestAsyncReader)
#include "tst_async_reader.moc"
