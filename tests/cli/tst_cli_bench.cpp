// SPDX-License-Identifier: MIT
// `bench` and `compare` as a script uses them: table lines per point, a summary, JSON that
// validates against bench/result.schema.json, CSV with one row per point, `compare` of a result
// with itself saying "no difference", and usage errors. The bench runs in the sandboxed worker:
// it counts the same reads there as in-process (io_uring included, on the worker's rings), its
// copies and result files are made by the parent, and a worker killed mid-bench is a clean error.

#include "json_schema.h"
#include "test_files.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>
#include <csignal>

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

    // The points of a --json result: strategy and size -> (bytes, read calls) of each counted run,
    // and the point's note.
    static QMap<QString, QString> pointsOf(const QString &json)
    {
        QFile file(json);
        if (!file.open(QIODevice::ReadOnly))
            return {};
        QMap<QString, QString> points;
        for (const auto &value : QJsonDocument::fromJson(file.readAll()).object()[QStringLiteral("points")].toArray()) {
            const QJsonObject point = value.toObject();
            QStringList runs;
            for (const auto &run : point[QStringLiteral("runs")].toArray())
                runs << QStringLiteral("%1/%2").arg(run.toObject()[QStringLiteral("bytes")].toInteger()).arg(run.toObject()[QStringLiteral("syscalls")].toInteger());
            points[point[QStringLiteral("strategy")].toString() + QLatin1Char(' ') + QString::number(point[QStringLiteral("buffer")].toInteger())] =
                runs.join(QLatin1Char(',')) + QStringLiteral(" note:") + point[QStringLiteral("note")].toString();
        }
        return points;
    }

    void benchInTheWorkerCountsAsInProcess()
    {
        // Plain-file, io_uring, stdio and copy strategies: the worker opens nothing itself (the
        // parent passes the file and makes the copies in --output-dir), sets up no ring of its own
        // (it borrows those it made before locking down), and writes no result file (the parent
        // writes the one named).
        QTemporaryDir copies;
        QStringList args = {QStringLiteral("bench"), file_, QStringLiteral("--sizes"), QStringLiteral("64K,1M"), QStringLiteral("--runs"), QStringLiteral("2"),
                            QStringLiteral("--output-dir"), copies.path()};
        for (const char *strategy : {"pread", "uring-qd4", "uring-qd16", "stdio", "copy", "direct"})
            args << QStringLiteral("--strategy") << QString::fromLatin1(strategy);
        const QString sandboxed = dir_.filePath(QStringLiteral("sandboxed.json"));
        const QString here = dir_.filePath(QStringLiteral("here.json"));
        auto inWorker = test::runCli(args + QStringList{QStringLiteral("--json"), sandboxed});
        QVERIFY2(inWorker.exitCode == 0, inWorker.err.constData());
        auto inProcess = test::runCli(QStringList{QStringLiteral("--no-sandbox")} + args + QStringList{QStringLiteral("--json"), here});
        QVERIFY2(inProcess.exitCode == 0, inProcess.err.constData());
        const auto a = pointsOf(sandboxed), b = pointsOf(here);
        QCOMPARE(a.size(), 12);
        QCOMPARE(a.keys(), b.keys());
        for (const QString &point : a.keys())
            QCOMPARE(point + QLatin1Char(' ') + a[point], point + QLatin1Char(' ') + b[point]);
        for (const QString &point : a)
            QVERIFY2(!point.contains(QStringLiteral("thread pool")), qPrintable(point));
        QVERIFY(QDir(copies.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
        // A result file the user did not name is not written for the worker.
        const QString other = dir_.filePath(QStringLiteral("other.json"));
        auto csvNamed = test::runCli({QStringLiteral("bench"), file_, QStringLiteral("--strategy"), QStringLiteral("read"), QStringLiteral("--sizes"),
                                      QStringLiteral("1M"), QStringLiteral("--runs"), QStringLiteral("1"), QStringLiteral("--csv=") + other});
        QCOMPARE(csvNamed.exitCode, 0);
        QVERIFY(QFile::exists(other));
    }

    void killedMidBenchIsACleanError()
    {
        QProcess cli;
        cli.start(QStringLiteral(CLI_PATH), {QStringLiteral("bench"), file_, QStringLiteral("--strategy"), QStringLiteral("uring-qd4"), QStringLiteral("--sizes"),
                                             QStringLiteral("4K"), QStringLiteral("--runs"), QStringLiteral("10000")});
        QVERIFY(cli.waitForStarted());
        // The first point's line comes once its runs are done: wait for the header, then kill the
        // worker while it measures.
        QVERIFY(cli.waitForReadyRead(20000));
        const pid_t worker = pid_t(test::firstChildOf(cli.processId()));
        QVERIFY(worker > 0);
        QCOMPARE(::kill(worker, SIGKILL), 0);
        QVERIFY(cli.waitForFinished(20000));
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 1);
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QVERIFY2(err.contains(file_) && err.contains(QStringLiteral("signal 9")), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestCliBench)
#include "tst_cli_bench.moc"
