// SPDX-License-Identifier: MIT
// `bench --command`: a user's own reader measured for its whole process tree. The calls on the
// target agree with strace's, call for call; a reader that ignores its buffer is named; both
// processes of a pipeline are counted; a failing command is an error naming it and its status;
// Ctrl-C ends the whole tree; the examples in examples/ build and run.

#include "test_files.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>

using namespace asc;

class TestBenchCommand : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString file_; // 6 MiB of seeded bytes
    static constexpr qint64 fileSize = 6 << 20;

    static QJsonObject readJson(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
    }

    // The points of one command, by buffer size.
    static std::map<qint64, QJsonObject> pointsOf(const QJsonObject &result, const QString &name)
    {
        std::map<qint64, QJsonObject> points;
        for (const auto &v : result[QStringLiteral("points")].toArray())
            if (v.toObject()[QStringLiteral("strategy")].toString() == name)
                points[qint64(v.toObject()[QStringLiteral("buffer")].toDouble())] = v.toObject();
        return points;
    }

    // strace's view of a program: read-family calls on the file (`onTarget`), and in all.
    struct Straced {
        int onTarget = 0;
        qint64 bytesOnTarget = 0;
        int all = 0;
    };
    Straced strace(const QStringList &argv, const QString &target)
    {
        const QString log = dir_.filePath(QStringLiteral("strace.log"));
        QFile::remove(log);
        auto r = test::run(QStringLiteral("strace"), QStringList{QStringLiteral("-f"), QStringLiteral("-qq"), QStringLiteral("-y"), QStringLiteral("-e"),
                                                                 QStringLiteral("trace=read,pread64,readv,preadv,preadv2,sendfile,splice,copy_file_range"),
                                                                 QStringLiteral("-e"), QStringLiteral("signal=none"), QStringLiteral("-o"), log} +
                                                         argv);
        Straced s;
        if (r.exitCode != 0)
            return s;
        QFile f(log);
        if (!f.open(QIODevice::ReadOnly))
            return s;
        const QRegularExpression call(QStringLiteral(R"(^\d+\s+(\w+)\((.*)\)\s+=\s+(-?\d+))"));
        const QString marker = QLatin1Char('<') + target + QLatin1Char('>');
        for (const QByteArray &line : f.readAll().split('\n')) {
            const auto m = call.match(QString::fromUtf8(line));
            if (!m.hasMatch())
                continue;
            ++s.all;
            // The descriptor read from: the first argument, sendfile's second.
            const QStringList args = m.captured(2).split(QStringLiteral(", "));
            const QString fd = m.captured(1) == QLatin1String("sendfile") ? args.value(1) : args.value(0);
            if (fd.contains(marker)) {
                ++s.onTarget;
                s.bytesOnTarget += std::max<qint64>(0, m.captured(3).toLongLong());
            }
        }
        return s;
    }

    QString compile(const QString &example)
    {
        const QString out = dir_.filePath(QFileInfo(example).baseName());
        auto r = test::run(QStringLiteral("cc"), {QStringLiteral("-O2"), QStringLiteral("-o"), out, QStringLiteral(SOURCE_DIR "/examples/") + example});
        return r.exitCode == 0 ? out : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        file_ = test::writeFile(dir_, QStringLiteral("target.bin"), test::seededBytes(fileSize, 31));
    }

    // dd at two buffer sizes: its calls on the target, their bytes and sizes are strace's; the
    // tree's counts are the kernel's (strace's plus the few reads execve makes to load dd).
    void ddAgreesWithStrace()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("strace"));
        const QString json = dir_.filePath(QStringLiteral("dd.json"));
        auto r = test::runCli({QStringLiteral("bench"), file_, QStringLiteral("--command"), QStringLiteral("dd=dd if={file} of=/dev/null bs={buffer}"),
                               QStringLiteral("--sizes"), QStringLiteral("4K,256K"), QStringLiteral("--runs"), QStringLiteral("2"), QStringLiteral("--warmup"),
                               QStringLiteral("0"), QStringLiteral("--json"), json});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject result = readJson(json);
        const auto points = pointsOf(result, QStringLiteral("dd"));
        QCOMPARE(int(points.size()), 2);
        QVERIFY(result[QStringLiteral("notes")].toArray().isEmpty());
        for (const auto &[buffer, point] : points) {
            QCOMPARE(point[QStringLiteral("kind")].toString(), QStringLiteral("command"));
            QCOMPARE(point[QStringLiteral("template")].toString(), QStringLiteral("dd if={file} of=/dev/null bs={buffer}"));
            QCOMPARE(point[QStringLiteral("command")].toString(), QStringLiteral("dd if=%1 of=/dev/null bs=%2").arg(file_).arg(buffer));
            const Straced s = strace({QStringLiteral("dd"), QStringLiteral("if=") + file_, QStringLiteral("of=/dev/null"), QStringLiteral("bs=%1").arg(buffer)}, file_);
            QCOMPARE(s.onTarget, int(fileSize / buffer) + 1); // and one that finds the end
            QCOMPARE(point[QStringLiteral("target_read_calls")].toInt(), s.onTarget);
            QCOMPARE(qint64(point[QStringLiteral("target_read_bytes")].toDouble()), s.bytesOnTarget);
            QCOMPARE(qint64(point[QStringLiteral("request_bytes_median")].toDouble()), buffer);
            const QJsonArray runs = point[QStringLiteral("runs")].toArray();
            QCOMPARE(runs.size(), 2);
            for (const auto &v : runs) {
                const QJsonObject run = v.toObject();
                QCOMPARE(qint64(run[QStringLiteral("bytes")].toDouble()), fileSize);
                QCOMPARE(run[QStringLiteral("read_calls")].toInt(), s.onTarget);
                QCOMPARE(qint64(run[QStringLiteral("read_bytes")].toDouble()), s.bytesOnTarget);
                const int calls = run[QStringLiteral("tree_read_calls")].toInt();
                QVERIFY2(calls >= s.all && calls <= s.all + 12, qPrintable(QStringLiteral("%1 against strace's %2").arg(calls).arg(s.all)));
                QVERIFY(run[QStringLiteral("tree_read_bytes")].toDouble() >= double(fileSize));
                QVERIFY(run[QStringLiteral("write_calls")].toInt() >= int(fileSize / buffer));
                QVERIFY(run[QStringLiteral("write_bytes")].toDouble() >= double(fileSize));
                QVERIFY(run[QStringLiteral("max_rss")].toDouble() > 100 * 1024);
                QVERIFY(run[QStringLiteral("seconds")].toDouble() > 0);
                QCOMPARE(run[QStringLiteral("exit_status")].toInt(), 0);
            }
        }
        QVERIFY2(r.out.contains("dd "), r.out.constData());
    }

    // examples/dd_sweep.sh: the sweep and its chart, as the README says.
    void ddSweepExample()
    {
        const QString out = dir_.filePath(QStringLiteral("dd-sweep.json"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("ARCHIVESCOPE_CLI"), QStringLiteral(CLI_PATH));
        QProcess sweep;
        sweep.setProcessEnvironment(env);
        sweep.start(QStringLiteral("/bin/sh"), {QStringLiteral(SOURCE_DIR "/examples/dd_sweep.sh"), file_, QStringLiteral("4K,64K"), out});
        QVERIFY(sweep.waitForFinished(120000));
        QVERIFY2(sweep.exitCode() == 0, sweep.readAllStandardError().constData());
        QCOMPARE(int(pointsOf(readJson(out), QStringLiteral("dd")).size()), 2);
        QCOMPARE(int(pointsOf(readJson(out), QStringLiteral("read")).size()), 2);
        QFile png(dir_.filePath(QStringLiteral("dd-sweep.png")));
        QVERIFY(png.open(QIODevice::ReadOnly));
        QVERIFY(png.read(8).startsWith("\x89PNG"));
    }

    // The examples: the honest C reader follows its buffer; the one that copies through sendfile
    // whatever it is given is named in the notes, and its kernel copies are strace's.
    void bypassIsFlagged()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("strace"));
        const QString honest = compile(QStringLiteral("buffered_reader.c"));
        const QString bypass = compile(QStringLiteral("kernel_copy_reader.c"));
        QVERIFY(!honest.isEmpty() && !bypass.isEmpty());
        const QString json = dir_.filePath(QStringLiteral("bypass.json"));
        auto r = test::runCli({QStringLiteral("bench"), file_, QStringLiteral("--command"), QStringLiteral("honest=%1 {file} {buffer}").arg(honest),
                               QStringLiteral("--command"), QStringLiteral("bypass=%1 {file} {buffer_kib}000").arg(bypass), QStringLiteral("--command"),
                               QStringLiteral("python=python3 %1/examples/python_reader.py {file} {buffer}").arg(QStringLiteral(SOURCE_DIR)),
                               QStringLiteral("--sizes"), QStringLiteral("8K:32K"), QStringLiteral("--runs"), QStringLiteral("1"), QStringLiteral("--warmup"),
                               QStringLiteral("0"), QStringLiteral("--json"), json});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject result = readJson(json);
        const QStringList notes = result[QStringLiteral("notes")].toVariant().toStringList();
        QCOMPARE(notes, QStringList{QStringLiteral("bypass ignores the buffer: its reads are 1048576 bytes at every size")});
        QVERIFY2(r.out.contains("Note: bypass ignores the buffer"), r.out.constData());
        // The table line of each of its points says it too: the same request at every size.
        QCOMPARE(r.out.count("calls, requests of 1 MiB"), 3);
        for (const auto &[buffer, point] : pointsOf(result, QStringLiteral("honest")))
            QCOMPARE(qint64(point[QStringLiteral("request_bytes_median")].toDouble()), buffer);
        // Python reads in requests of its buffering= size.
        QCOMPARE(int(pointsOf(result, QStringLiteral("python")).size()), 3);
        const auto copies = pointsOf(result, QStringLiteral("bypass"));
        const Straced s = strace({bypass, file_, QStringLiteral("8000")}, file_);
        QCOMPARE(s.onTarget, int(fileSize >> 20) + 1);
        for (const auto &[buffer, point] : copies) {
            QCOMPARE(point[QStringLiteral("target_read_calls")].toInt(), s.onTarget);
            QCOMPARE(qint64(point[QStringLiteral("target_read_bytes")].toDouble()), fileSize);
        }
    }

    // sh, cat and wc: the tree's counts hold both readers (cat's of the file, wc's of the pipe).
    void pipelineCountsEveryProcess()
    {
        const QString json = dir_.filePath(QStringLiteral("pipe.json"));
        auto r = test::runCli({QStringLiteral("bench"), file_, QStringLiteral("--shell"), QStringLiteral("--command"),
                               QStringLiteral("pipe=cat {file} | dd bs={buffer} status=none | wc -c"), QStringLiteral("--sizes"), QStringLiteral("64K"),
                               QStringLiteral("--runs"), QStringLiteral("1"), QStringLiteral("--warmup"), QStringLiteral("0"), QStringLiteral("--json"), json});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject point = pointsOf(readJson(json), QStringLiteral("pipe")).at(65536);
        QCOMPARE(qint64(point[QStringLiteral("target_read_bytes")].toDouble()), fileSize);
        const QJsonObject run = point[QStringLiteral("runs")].toArray().first().toObject();
        // cat reads the file, dd the first pipe, wc the second: three times the file at least.
        QVERIFY2(run[QStringLiteral("tree_read_bytes")].toDouble() >= 3.0 * double(fileSize), qPrintable(QString::number(run[QStringLiteral("tree_read_bytes")].toDouble())));
        QCOMPARE(qint64(run[QStringLiteral("read_bytes")].toDouble()), fileSize);
        QVERIFY(run[QStringLiteral("write_bytes")].toDouble() >= 2.0 * double(fileSize));
    }

    // --prepare runs before each run (warm-ups included), untimed, with /bin/sh.
    void prepareRunsBeforeEachRun()
    {
        const QString counter = dir_.filePath(QStringLiteral("prepared"));
        auto r = test::runCli({QStringLiteral("bench"), file_, QStringLiteral("--command"), QStringLiteral("dd=dd if={file} of=/dev/null bs={buffer}"),
                               QStringLiteral("--prepare"), QStringLiteral("echo run >> '%1'").arg(counter), QStringLiteral("--sizes"), QStringLiteral("4K,8K"),
                               QStringLiteral("--runs"), QStringLiteral("2"), QStringLiteral("--warmup"), QStringLiteral("1")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(counter);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().count("run\n"), 2 * 3); // 2 sizes x (1 warm-up + 2 runs)
        auto failing = test::runCli({QStringLiteral("bench"), file_, QStringLiteral("--command"), QStringLiteral("dd=dd if={file} of=/dev/null bs={buffer}"),
                                     QStringLiteral("--prepare"), QStringLiteral("exit 4"), QStringLiteral("--sizes"), QStringLiteral("4K")});
        QCOMPARE(failing.exitCode, 1);
        QVERIFY2(failing.err.contains("--prepare 'exit 4'") && failing.err.contains("exit status 4"), failing.err.constData());
    }

    // Inside a container the target has no path: {stdin} feeds its bytes through a pipe.
    void stdinInsideAContainer()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        const QString tar = dir_.filePath(QStringLiteral("t.tar"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-cf"), tar, QStringLiteral("-C"), dir_.path(), QStringLiteral("target.bin")}).exitCode, 0);
        const QString json = dir_.filePath(QStringLiteral("stdin.json"));
        const QString spec = tar + QStringLiteral("!/target.bin");
        auto r = test::runCli({QStringLiteral("bench"), spec, QStringLiteral("--command"), QStringLiteral("dd=dd if={stdin} of=/dev/null bs={buffer}"),
                               QStringLiteral("--sizes"), QStringLiteral("64K"), QStringLiteral("--runs"), QStringLiteral("1"), QStringLiteral("--json"), json});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject point = pointsOf(readJson(json), QStringLiteral("dd")).at(65536);
        QCOMPARE(qint64(point[QStringLiteral("target_read_bytes")].toDouble()), fileSize);
        QCOMPARE(point[QStringLiteral("command")].toString(), QStringLiteral("dd if=/dev/stdin of=/dev/null bs=65536"));
        auto noPath = test::runCli({QStringLiteral("bench"), spec, QStringLiteral("--command"), QStringLiteral("dd=dd if={file} bs={buffer}")});
        QCOMPARE(noPath.exitCode, 2);
        QVERIFY2(noPath.err.contains("use {stdin}"), noPath.err.constData());
    }

    // trace --command: one record per call on the target, as strace saw them, in file order.
    void traceRecordsEachCall()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("strace"));
        const QString jsonl = dir_.filePath(QStringLiteral("dd.jsonl"));
        auto r = test::runCli({QStringLiteral("trace"), QStringLiteral("-o"), jsonl, QStringLiteral("--command"), QStringLiteral("dd if={file} of=/dev/null bs={buffer}"),
                               QStringLiteral("--buffer"), QStringLiteral("512K"), file_});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("read amplification: 6 MiB read for 6 MiB delivered = 1.000x"), r.err.constData());
        QFile f(jsonl);
        QVERIFY(f.open(QIODevice::ReadOnly));
        qint64 expected = 0;
        int records = 0;
        for (const QByteArray &line : f.readAll().split('\n')) {
            if (line.isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            QCOMPARE(o[QStringLiteral("file")].toString(), file_);
            QCOMPARE(o[QStringLiteral("layer")].toString(), QStringLiteral("read"));
            QCOMPARE(qint64(o[QStringLiteral("offset")].toDouble()), expected);
            expected += qint64(o[QStringLiteral("length")].toDouble());
            ++records;
        }
        QCOMPARE(expected, fileSize);
        const Straced s = strace({QStringLiteral("dd"), QStringLiteral("if=") + file_, QStringLiteral("of=/dev/null"), QStringLiteral("bs=524288")}, file_);
        QCOMPARE(records, s.onTarget);
    }

    void badTemplatesAreUsageErrors_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown placeholder") << QStringLiteral("x=dd if={file} bs={bufer}") << QStringLiteral("unknown placeholder {bufer}");
        QTest::newRow("no buffer") << QStringLiteral("x=cat {file}") << QStringLiteral("no {buffer}");
        QTest::newRow("no target") << QStringLiteral("x=dd bs={buffer}") << QStringLiteral("neither {file} nor {stdin}");
        QTest::newRow("not found") << QStringLiteral("x=no-such-reader-here {file} {buffer}") << QStringLiteral("program 'no-such-reader-here' not found");
        QTest::newRow("open quote") << QStringLiteral("x=dd 'if={file} bs={buffer}") << QStringLiteral("quote is not closed");
    }
    void badTemplatesAreUsageErrors()
    {
        QFETCH(QString, command);
        QFETCH(QString, message);
        auto r = test::runCli({QStringLiteral("bench"), file_, QStringLiteral("--command"), command});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    }

    // A command that fails: an error naming it, as run, with its status and its last words.
    void failingCommandIsAnError()
    {
        auto r = test::runCli({QStringLiteral("bench"), file_, QStringLiteral("--shell"), QStringLiteral("--command"),
                               QStringLiteral("picky=test {buffer} -lt 10000 || { echo buffer too big >&2; exit 3; }; cat {file}"), QStringLiteral("--sizes"),
                               QStringLiteral("4K:16K"), QStringLiteral("--runs"), QStringLiteral("1")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("command picky (test 16384 -lt 10000"), r.err.constData());
        QVERIFY2(r.err.contains("failed: exit status 3: buffer too big"), r.err.constData());
    }

    // Ctrl-C while a command runs ends its whole tree, grandchildren included.
    void interruptEndsTheTree()
    {
        const QString pids = dir_.filePath(QStringLiteral("pids"));
        QProcess cli;
        cli.start(QStringLiteral(CLI_PATH), {QStringLiteral("bench"), file_, QStringLiteral("--shell"), QStringLiteral("--command"),
                                             QStringLiteral("slow=sh -c 'echo $$ >> %1; exec sleep 600' & echo $$ >> %1; sleep 600; cat {file} {buffer}").arg(pids),
                                             QStringLiteral("--sizes"), QStringLiteral("4K"), QStringLiteral("--runs"), QStringLiteral("1")});
        QVERIFY(cli.waitForStarted());
        const QStringList written = test::waitForLines(pids, 2); // both shells wrote their pid
        QCOMPARE(written.size(), 2);
        ::kill(pid_t(cli.processId()), SIGINT);
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY(cli.exitCode() != 0);
        for (const QString &pid : written) {
            // Gone, or a zombie about to be reaped by init: not running any more.
            // Gone, reaped: the measuring process kills and reaps the whole tree before it ends.
            const QByteArray text = test::processStat(pid);
            QVERIFY2(text.isEmpty(), text.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestBenchCommand)
#include "tst_bench_command.moc"
