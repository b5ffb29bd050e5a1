// SPDX-License-Identifier: MIT
// `bench` and `compare` as a script uses them: table lines per point, a summary, JSON that
// validates against bench/result.schema.json, CSV with one row per point, `compare` of a result
// with itself saying "no difference", and usage errors.

#include "json_schema.h"
#include "test_files.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace asc;

class TestCliBench : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString file_;

private Q_SLOTS:
    void initTestCase()
    {
        file_ = test::writeFile(dir_, QStringLiteral("data.bin"), test::seededBytes(8 * 1024 * 1024 + 3, 4));
    }

    void benchWritesTableJsonAndCsv()
    {
        const QString json = dir_.filePath(QStringLiteral("r.json"));
        const QString csv = dir_.filePath(QStringLiteral("r.csv"));
        auto r = test::runCli({QStringLiteral("bench"), file_, QStringLiteral("--strategy"), QStringLiteral("read"), QStringLiteral("--strategy"),
                               QStringLiteral("uring-qd4"), QStringLiteral("--sizes"), QStringLiteral("64K:256K"), QStringLiteral("--runs"),
                               QStringLiteral("3"), QStringLiteral("--passes"), QStringLiteral("2"), QStringLiteral("--json"), json,
                               QStringLiteral("--csv"), csv});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // 2 strategies x 3 sizes x 2 passes lines, each "strategy size mean ± sd MiB/s (min … max)".
        int pointLines = 0;
        for (const QByteArray &line : r.out.split('\n'))
            if (line.contains(" MiB/s  (") && line.contains(" … "))
                ++pointLines;
        QCOMPARE(pointLines, 12);
        QVERIFY(r.out.contains("Fastest: "));
        QVERIFY(r.out.contains("times faster than"));

        QFile schemaFile(QStringLiteral(SOURCE_DIR "/bench/result.schema.json"));
        QVERIFY(schemaFile.open(QIODevice::ReadOnly));
        QFile result(json);
        QVERIFY(result.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(result.readAll()).object();
        const QStringList problems = test::validateJson(doc, QJsonDocument::fromJson(schemaFile.readAll()).object());
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QCOMPARE(doc[QStringLiteral("points")].toArray().size(), 12);
        QCOMPARE(doc[QStringLiteral("target")].toObject()[QStringLiteral("bytes")].toInteger(), 8 * 1024 * 1024 + 3);
        for (const auto &p : doc[QStringLiteral("points")].toArray())
            for (const auto &run : p.toObject()[QStringLiteral("runs")].toArray())
                QCOMPARE(run.toObject()[QStringLiteral("bytes")].toInteger(), 8 * 1024 * 1024 + 3);

        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        QCOMPARE(csvFile.readAll().trimmed().split('\n').size(), 13);

        auto same = test::runCli({QStringLiteral("compare"), json, json});
        QCOMPARE(same.exitCode, 0);
        QVERIFY(same.out.contains("no difference at any of 12 points"));
    }

    void errors()
    {
        QCOMPARE(test::runCli({QStringLiteral("bench"), file_, QStringLiteral("--strategy"), QStringLiteral("nope")}).exitCode, 2);
        QCOMPARE(test::runCli({QStringLiteral("bench"), file_, QStringLiteral("--sizes"), QStringLiteral("16M:4K")}).exitCode, 2);
        QCOMPARE(test::runCli({QStringLiteral("bench"), file_, QStringLiteral("--cache"), QStringLiteral("lukewarm")}).exitCode, 2);
        auto missing = test::runCli({QStringLiteral("bench"), dir_.filePath(QStringLiteral("missing"))});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains("missing"));
        const QString garbage = test::writeFile(dir_, QStringLiteral("garbage.json"), "{not json");
        auto c = test::runCli({QStringLiteral("compare"), garbage, garbage});
        QCOMPARE(c.exitCode, 1);
        QVERIFY(c.err.contains("garbage.json"));
    }
};

QTEST_GUILESS_MAIN(TestCliBench)
#include "tst_cli_bench.moc"
