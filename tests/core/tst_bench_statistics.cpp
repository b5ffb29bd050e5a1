// SPDX-License-Identifier: MIT
// Statistics on known samples, Welch's test, ratios with propagated uncertainty, and the result
// file: JSON round trip, schema, CSV rows.

#include "bench/bench_result.h"
#include "bench/comparison.h"
#include "json_schema.h"
#include "test_files.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <cmath>

using namespace asc;

class TestBenchStatistics : public QObject {
    Q_OBJECT

    static BenchResult sampleResult(double scale)
    {
        BenchResult r;
        r.version = QStringLiteral("test");
        r.machine = QJsonObject{{QStringLiteral("cpu"), QStringLiteral("x")}, {QStringLiteral("cores"), 2}, {QStringLiteral("kernel"), QStringLiteral("k")}, {QStringLiteral("filesystem"), QStringLiteral("ext4")}, {QStringLiteral("libc"), QStringLiteral("glibc")}, {QStringLiteral("libraries"), QStringLiteral("Qt")}};
        r.spec = QStringLiteral("file");
        r.targetBytes = 1 << 30;
        r.config.strategies = {QStringLiteral("read")};
        r.config.buffers = {4096, 65536};
        for (uint64_t buffer : r.config.buffers) {
            BenchPoint p;
            p.strategy = QStringLiteral("read");
            p.buffer = buffer;
            std::vector<double> rates;
            for (double seconds : {1.0, 1.1, 0.9, 1.05, 0.95}) {
                Sample s;
                s.seconds = seconds / scale * (buffer == 4096 ? 2 : 1);
                s.bytes = 1 << 30;
                s.syscalls = (1 << 30) / buffer;
                s.readBytes = 0;
                p.runs.push_back(s);
                rates.push_back(double(s.bytes) / 1048576.0 / s.seconds);
            }
            p.mibps = summarise(rates);
            r.points.push_back(p);
        }
        return r;
    }

private Q_SLOTS:
    void summaryOfKnownSamples()
    {
        const Summary s = summarise({2, 4, 4, 4, 5, 5, 7, 9});
        QCOMPARE(s.count, 8);
        QCOMPARE(s.mean, 5.0);
        QCOMPARE(s.median, 4.5);
        QCOMPARE(s.min, 2.0);
        QCOMPARE(s.max, 9.0);
        QVERIFY(std::fabs(s.sd - 2.138089935) < 1e-6); // sample sd (n-1)
        const Summary odd = summarise({3, 1, 2});
        QCOMPARE(odd.median, 2.0);
        QCOMPARE(summarise({}).count, 0);
        QCOMPARE(summarise({7}).sd, 0.0);
    }

    void welchAgainstKnownValues()
    {
        // By hand: means 3 and 5, variances 2.5 each, n = 5: t = 2 / sqrt(0.5 + 0.5) = 2,
        // df = 1 / (2 * 0.25 / 4) = 8; two-sided p for t = 2 with 8 df is 0.08052.
        const Summary a = summarise({1, 2, 3, 4, 5});
        const Summary b = summarise({3, 4, 5, 6, 7});
        const WelchTest w = welch(a, b);
        QVERIFY(std::fabs(w.t - 2.0) < 1e-9);
        QVERIFY(std::fabs(w.degreesOfFreedom - 8.0) < 1e-9);
        QVERIFY2(std::fabs(w.pValue - 0.08052) < 5e-5, qPrintable(QString::number(w.pValue)));
        // Far apart: t = 12 with 8 df; the tail integral of Student's t gives p = 2.1439e-6.
        const WelchTest far = welch(a, summarise({13, 14, 15, 16, 17}));
        QVERIFY2(std::fabs(far.pValue - 2.1439e-6) < 1e-9, qPrintable(QString::number(far.pValue)));
        const WelchTest same = welch(a, a);
        QCOMPARE(same.t, 0.0);
        QVERIFY(same.pValue > 0.99);
    }

    void ratioPropagatesUncertainty()
    {
        Summary a;
        a.mean = 100;
        a.sd = 10;
        Summary b;
        b.mean = 200;
        b.sd = 10;
        const Ratio r = ratioOf(b, a);
        QCOMPARE(r.value, 2.0);
        QVERIFY(std::fabs(r.sd - 2.0 * std::sqrt(0.01 + 0.0025)) < 1e-12);
    }

    void compareWithItselfAndWithFaster()
    {
        const BenchResult a = sampleResult(1);
        for (const PointComparison &c : comparePoints(a, a)) {
            QVERIFY(!c.significant);
            QVERIFY(c.verdict.startsWith(QStringLiteral("no difference")));
            QCOMPARE(c.ratio.value, 1.0);
        }
        const BenchResult b = sampleResult(1.5);
        const auto faster = comparePoints(a, b);
        QCOMPARE(int(faster.size()), 2);
        for (const PointComparison &c : faster) {
            QVERIFY(c.significant);
            QVERIFY(std::fabs(c.ratio.value - 1.5) < 1e-9);
            QVERIFY2(c.verdict.startsWith(QStringLiteral("B is 1.50 ± ")), qPrintable(c.verdict));
        }
    }

    // Many points of two sweeps of the same thing: a few raw p < 0.05 come by chance; Holm's
    // correction calls none of them a difference, and keeps a real one.
    void manyPointsAreCorrectedForTheirNumber()
    {
        BenchResult a, b;
        for (int i = 0; i < 42; ++i) {
            BenchPoint pa, pb;
            pa.strategy = pb.strategy = QStringLiteral("s%1").arg(i);
            pa.buffer = pb.buffer = 4096;
            pa.mibps = summarise({100, 101, 99, 100.5, 99.5});
            // Every seventh point differs a little (raw p about 0.02), one point a lot.
            pb.mibps = i == 0 ? summarise({200, 201, 199, 200.5, 199.5}) : i % 7 == 0 ? summarise({101.2, 102.2, 100.2, 101.7, 100.7})
                                                                                      : pa.mibps;
            a.points.push_back(pa);
            b.points.push_back(pb);
        }
        const auto compared = comparePoints(a, b);
        QCOMPARE(int(compared.size()), 42);
        int rawBelow = 0, significant = 0;
        for (const PointComparison &c : compared) {
            rawBelow += c.test.pValue < 0.05;
            significant += c.significant;
            QVERIFY(c.adjustedP >= c.test.pValue);
        }
        QVERIFY2(rawBelow >= 5, qPrintable(QString::number(rawBelow)));
        QCOMPARE(significant, 1);
        QVERIFY(compared.front().significant);
        QVERIFY2(compared.front().verdict.contains(QStringLiteral("Holm-adjusted over 42 points: ")), qPrintable(compared.front().verdict));
    }

    void jsonRoundTripAndSchema()
    {
        const BenchResult r = sampleResult(1);
        const QJsonObject json = toJson(r);
        QFile schemaFile(QStringLiteral(SOURCE_DIR "/bench/result.schema.json"));
        QVERIFY(schemaFile.open(QIODevice::ReadOnly));
        const QJsonObject schema = QJsonDocument::fromJson(schemaFile.readAll()).object();
        QVERIFY(!schema.isEmpty());
        const QStringList problems = test::validateJson(json, schema);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        // The schema is not vacuous: a point without its statistics fails it.
        QJsonObject broken = json;
        QJsonArray points = broken[QStringLiteral("points")].toArray();
        QJsonObject first = points[0].toObject();
        first.remove(QStringLiteral("mean_mibps"));
        points[0] = first;
        broken[QStringLiteral("points")] = points;
        QVERIFY(!test::validateJson(broken, schema).isEmpty());

        auto back = benchResultFromJson(json, QStringLiteral("r.json"));
        QVERIFY(back.ok());
        QCOMPARE(int(back->points.size()), 2);
        QCOMPARE(back->points[1].buffer, uint64_t(65536));
        QVERIFY(std::fabs(back->points[1].mibps.mean - r.points[1].mibps.mean) < 1e-9);
        QVERIFY(!benchResultFromJson(QJsonObject{{QStringLiteral("x"), 1}}, QStringLiteral("bad.json")).ok());
    }

    void csvHasOneRowPerPoint()
    {
        const QByteArray csv = toCsv(sampleResult(1));
        const QList<QByteArray> rows = csv.trimmed().split('\n');
        QCOMPARE(rows.size(), 3);
        QVERIFY(rows[0].startsWith("strategy,buffer,cache,pass,runs,mean_mibps"));
        QVERIFY(rows[1].startsWith("read,4096,warm,1,5,"));
    }

    void summaryNamesTheFastest()
    {
        const QStringList lines = summaryLines(sampleResult(1));
        QVERIFY(lines.first().startsWith(QStringLiteral("Fastest: read 64 KiB")));
    }
};

QTEST_GUILESS_MAIN(TestBenchStatistics)
#include "tst_bench_statistics.moc"
