// SPDX-License-Identifier: MIT
// A benchmark's point and result cross the worker's socket as typed values (remote/bench_codec.h):
// every field comes back as it went, and a cut or hostile frame is refused, not trusted.

#include "remote/bench_codec.h"

#include <QCborMap>
#include <QCborValue>
#include <QJsonDocument>
#include <QtTest>

using namespace asc;

namespace {

BenchPoint fullPoint()
{
    BenchPoint p;
    p.strategy = QStringLiteral("uring-polled");
    p.buffer = 1 << 20;
    p.cache = CacheMode::Cold;
    p.pass = 3;
    for (int i = 0; i < 3; ++i) {
        Sample s;
        s.seconds = 0.125 + i / 7.0;
        s.bytes = (uint64_t(5) << 32) + uint64_t(i);
        s.user = 0.01 * i;
        s.sys = 0.3;
        s.syscalls = 2335 + uint64_t(i);
        s.readBytes = -1;
        s.rchar = 123456789;
        s.maxRssBytes = 99 << 20;
        s.writeCalls = 7;
        s.writeBytes = -1;
        s.storageWriteBytes = 4096;
        s.exitStatus = i;
        p.runs.push_back(s);
    }
    p.mibps = summarise({512.5, 498.25, 530.0});
    p.note = QStringLiteral("cache eviction unverified");
    p.isCommand = true;
    p.commandTemplate = QStringLiteral("bsdtar -xOf {file}");
    p.command = QStringLiteral("bsdtar -xOf /tmp/a.tar.gz");
    p.requestBytesMedian = 65536.5;
    p.targetReadCalls = 2335;
    p.targetReadBytes = int64_t(1) << 33;
    return p;
}

template <class T>
QByteArray encoded(const T &value)
{
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out << value;
    return bytes;
}

template <class T>
std::optional<T> decoded(const QByteArray &bytes)
{
    QDataStream in(bytes);
    T value;
    in >> value;
    if (in.status() != QDataStream::Ok)
        return std::nullopt;
    return value;
}

QByteArray asJson(const BenchResult &result)
{
    return QJsonDocument(toJson(result)).toJson(QJsonDocument::Compact);
}

} // namespace

class TestBenchCodec : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pointComesBackWhole()
    {
        const BenchPoint sent = fullPoint();
        auto got = decoded<BenchPoint>(encoded(sent));
        QVERIFY(got);
        BenchResult a, b;
        a.points.push_back(sent);
        b.points.push_back(*got);
        QCOMPARE(asJson(b), asJson(a));
        // Exact, not through a decimal text: the doubles are the same bits.
        QCOMPARE(got->runs[1].seconds, sent.runs[1].seconds);
        QCOMPARE(got->mibps.sd, sent.mibps.sd);
        QCOMPARE(got->runs[2].bytes, sent.runs[2].bytes);
    }

    void resultComesBackWhole()
    {
        BenchResult sent;
        sent.version = QStringLiteral("1.2.3");
        sent.machine = QJsonObject{{QStringLiteral("cpu"), QStringLiteral("Example CPU")}, {QStringLiteral("cores"), 2}, {QStringLiteral("kernel"), QJsonObject{{QStringLiteral("release"), QStringLiteral("6.1")}}}};
        sent.spec = QStringLiteral("/data/a.tar.gz!/big.bin");
        sent.targetBytes = 3ull << 30;
        sent.config.strategies = {QStringLiteral("read"), QStringLiteral("uring-polled")};
        sent.config.buffers = {4096, 1 << 20, 16 << 20};
        sent.config.runs = 7;
        sent.config.warmup = 2;
        sent.config.cache = CacheMode::Cold;
        sent.config.passes = 2;
        sent.notes = {QStringLiteral("dd ignores the buffer")};
        sent.skipped = {QStringLiteral("mmap: not a plain file")};
        sent.points = {fullPoint(), fullPoint()};
        sent.points[1].strategy = QStringLiteral("read");
        auto got = decoded<BenchResult>(encoded(sent));
        QVERIFY(got);
        QCOMPARE(asJson(*got), asJson(sent));
        QCOMPARE(got->config.cache, CacheMode::Cold);
    }

    void cutOrHostileFramesAreRefused()
    {
        BenchResult sent;
        sent.points = {fullPoint()};
        const QByteArray whole = encoded(sent);
        for (qsizetype cut : {qsizetype(1), whole.size() / 2, whole.size() - 1})
            QVERIFY2(!decoded<BenchResult>(whole.left(cut)), qPrintable(QString::number(cut)));
        // A run count of four billion: refused before anything is allocated for it.
        QByteArray point = encoded(fullPoint());
        QByteArray hostile;
        QDataStream out(&hostile, QIODevice::WriteOnly);
        out << QStringLiteral("read") << quint64(4096) << false << qint32(1) << quint32(0xffffffffu);
        QVERIFY(!decoded<BenchPoint>(hostile));
        QVERIFY(decoded<BenchPoint>(point));
        // A result claiming a billion strategy names: refused, not a 23 GB reservation (what
        // fuzz_worker_answers found when Qt's own list reader read it).
        QByteArray list;
        QDataStream head(&list, QIODevice::WriteOnly);
        head << QString() << QString() << QCborValue(QCborMap()) << QString() << quint64(0) << quint32(1000000000);
        QVERIFY(!decoded<BenchResult>(list));
    }
};

QTEST_GUILESS_MAIN(TestBenchCodec)
#include "tst_bench_codec.moc"
