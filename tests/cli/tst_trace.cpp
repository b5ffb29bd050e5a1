// SPDX-License-Identifier: MIT
// `archivescope-cli trace -- COMMAND`: the trace records exactly the reads the kernel saw
// (strace's pread64 calls on the file, offset and length for each), names the layer that asked
// (qcow2 tables and data clusters, libarchive), and the summary's figures add up.

#include "fixtures.h"
#include "test_files.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

using namespace asc;

class TestTrace : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    static QList<QJsonObject> records(const QString &path)
    {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return {};
        QList<QJsonObject> out;
        for (const QByteArray &line : file.readAll().split('\n'))
            if (!line.isEmpty())
                out << QJsonDocument::fromJson(line).object();
        return out;
    }

private Q_SLOTS:
    void recordsWhatTheKernelSaw()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("strace"));
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        for (int i = 0; i < 40; ++i)
            test::writeFile(dir_, QStringLiteral("src/f%1.txt").arg(i), QByteArray::number(i).repeated(3000 + i));
        test::writeFile(dir_, QStringLiteral("src/big.bin"), test::seededBytes(3 << 20, 8));
        const QString tar = dir_.filePath(QStringLiteral("t.tar"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-cf"), tar, QStringLiteral("-C"), dir_.filePath(QStringLiteral("src")), QStringLiteral(".")}).exitCode, 0);
        const QString trace = dir_.filePath(QStringLiteral("cat.jsonl"));
        const QString log = dir_.filePath(QStringLiteral("strace.log"));
        auto r = test::run(QStringLiteral("strace"), {QStringLiteral("-f"), QStringLiteral("-y"), QStringLiteral("-e"), QStringLiteral("trace=pread64,read,sendfile,copy_file_range"),
                                                      QStringLiteral("-e"), QStringLiteral("signal=none"), QStringLiteral("-o"), log, QStringLiteral(CLI_PATH),
                                                      QStringLiteral("--no-sandbox"), QStringLiteral("trace"), QStringLiteral("-o"), trace, QStringLiteral("--"),
                                                      QStringLiteral("cat"), tar + QStringLiteral("!/./big.bin")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, test::seededBytes(3 << 20, 8));
        // The kernel's view: every pread64/read of t.tar that returned bytes.
        QFile straced(log);
        QVERIFY(straced.open(QIODevice::ReadOnly));
        QList<QPair<qulonglong, qulonglong>> kernel;
        const QRegularExpression pread(QStringLiteral(R"(pread64\(\d+<[^>]*t\.tar>, .*, (\d+), (\d+)\) = (\d+))"));
        const QRegularExpression plainRead(QStringLiteral(R"(\bread\(\d+<[^>]*t\.tar>)"));
        // The kernel's own copies out of the file (a stored member is sent to the pipe as is).
        const QRegularExpression sendfile(QStringLiteral(R"(sendfile\(\d+<[^>]*>, \d+<[^>]*t\.tar>, \[(\d+)\].*\) = (\d+))"));
        const QRegularExpression copyRange(QStringLiteral(R"(copy_file_range\(\d+<[^>]*t\.tar>, \[(\d+)\].*\) = (\d+))"));
        for (const QByteArray &line : straced.readAll().split('\n')) {
            const QString text = QString::fromUtf8(line);
            QVERIFY2(!plainRead.match(text).hasMatch(), qPrintable(text)); // every read of the file is positional
            const auto m = pread.match(text);
            if (m.hasMatch() && m.captured(3).toULongLong() > 0)
                kernel << qMakePair(m.captured(2).toULongLong(), m.captured(3).toULongLong());
            for (const QRegularExpression *copy : {&sendfile, &copyRange}) {
                const auto k = copy->match(text);
                if (k.hasMatch() && k.captured(2).toULongLong() > 0)
                    kernel << qMakePair(k.captured(1).toULongLong(), k.captured(2).toULongLong());
            }
        }
        QList<QPair<qulonglong, qulonglong>> traced;
        for (const QJsonObject &o : records(trace)) {
            QCOMPARE(o[QStringLiteral("file")].toString(), tar);
            QVERIFY(!o[QStringLiteral("layer")].toString().isEmpty());
            QVERIFY(o[QStringLiteral("t")].toDouble() >= 0);
            if (o[QStringLiteral("length")].toDouble() > 0)
                traced << qMakePair(qulonglong(o[QStringLiteral("offset")].toDouble()), qulonglong(o[QStringLiteral("length")].toDouble()));
        }
        QVERIFY(kernel.size() > 3);
        std::sort(kernel.begin(), kernel.end());
        std::sort(traced.begin(), traced.end());
        QCOMPARE(traced, kernel);
        // By default the command runs in the sandboxed worker, which records its own reads; this
        // process writes the file it names. The same reads.
        const QString sandboxedTrace = dir_.filePath(QStringLiteral("cat-sandboxed.jsonl"));
        auto sandboxed = test::runCli({QStringLiteral("trace"), QStringLiteral("-o"), sandboxedTrace, QStringLiteral("--"), QStringLiteral("cat"), tar + QStringLiteral("!/./big.bin")});
        QCOMPARE(sandboxed.exitCode, 0);
        QCOMPARE(sandboxed.out, test::seededBytes(3 << 20, 8));
        QList<QPair<qulonglong, qulonglong>> inWorker;
        for (const QJsonObject &o : records(sandboxedTrace))
            if (o[QStringLiteral("length")].toDouble() > 0)
                inWorker << qMakePair(qulonglong(o[QStringLiteral("offset")].toDouble()), qulonglong(o[QStringLiteral("length")].toDouble()));
        std::sort(inWorker.begin(), inWorker.end());
        QCOMPARE(inWorker, traced);
        // The summary: amplification against the 3 MiB delivered, requests by size, layers.
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(QStringLiteral("read amplification")) && err.contains(QStringLiteral("3 MiB delivered")), qPrintable(err));
        // The member, stored in the tar, goes out as one kernel copy; libarchive read the headers.
        QVERIFY2(err.contains(QStringLiteral("by layer: kernel copy 3 MiB")) && err.contains(QStringLiteral("libarchive")), qPrintable(err));
    }

    void recordsAsyncReads()
    {
        // A benchmark point with io_uring reads (a thread pool where io_uring is refused): every
        // byte of the file is recorded once, whichever way it was read.
        const QString file = test::writeFile(dir_, QStringLiteral("async.bin"), test::seededBytes(3 << 20, 4));
        const QString trace = dir_.filePath(QStringLiteral("async.jsonl"));
        auto r = test::runCli({QStringLiteral("trace"), QStringLiteral("-o"), trace, QStringLiteral("--"), QStringLiteral("bench"), file, QStringLiteral("--strategy"),
                               QStringLiteral("uring-qd4"), QStringLiteral("--sizes"), QStringLiteral("64K"), QStringLiteral("--runs"), QStringLiteral("1"),
                               QStringLiteral("--warmup"), QStringLiteral("0")});
        QCOMPARE(r.exitCode, 0);
        qulonglong uring = 0, all = 0;
        for (const QJsonObject &o : records(trace)) {
            const qulonglong length = qulonglong(o[QStringLiteral("length")].toDouble());
            all += length;
            if (o[QStringLiteral("layer")].toString() == QLatin1String("io_uring"))
                uring += length;
        }
        // Opening the target probes a little first; the run itself is the file, once.
        if (uring > 0)
            QCOMPARE(uring, qulonglong(3 << 20));
        else
            QVERIFY2(all >= qulonglong(3 << 20), qPrintable(QString::number(all)));
    }

    // The plain-file strategies read the file with their own calls (read, pread, O_DIRECT, a
    // mapping's copies), not through our sources: each still records every byte it read once,
    // in buffer-sized reads at increasing offsets.
    void recordsPlainFileStrategies()
    {
        const QString file = test::writeFile(dir_, QStringLiteral("plainbench.bin"), test::seededBytes(1 << 20, 7));
        for (const char *strategy : {"read", "pread", "mmap"}) {
            const QString trace = dir_.filePath(QStringLiteral("plain-%1.jsonl").arg(QLatin1String(strategy)));
            auto r = test::runCli({QStringLiteral("trace"), QStringLiteral("-o"), trace, QStringLiteral("--"), QStringLiteral("bench"), file, QStringLiteral("--strategy"),
                                   QLatin1String(strategy), QStringLiteral("--sizes"), QStringLiteral("64K"), QStringLiteral("--runs"), QStringLiteral("1"),
                                   QStringLiteral("--warmup"), QStringLiteral("0")});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QList<qulonglong> offsets;
            for (const QJsonObject &o : records(trace))
                if (qulonglong(o[QStringLiteral("length")].toDouble()) == 65536 && o[QStringLiteral("layer")].toString() != QLatin1String("probe"))
                    offsets << qulonglong(o[QStringLiteral("offset")].toDouble());
            QVERIFY2(offsets.size() >= 16, qPrintable(QStringLiteral("%1: %2 reads").arg(QLatin1String(strategy)).arg(offsets.size())));
            for (int i = 0; i < 16; ++i)
                QVERIFY2(offsets.contains(qulonglong(i) * 65536), strategy);
        }
    }

    // cat of a plain file moves its bytes by sendfile (to a pipe) or copy_file_range: those
    // are reads of the file too, recorded in the "kernel copy" layer, so the trace adds up to
    // the file's size instead of a few header reads ("read amplification 0.003x").
    void recordsKernelCopies()
    {
        const qsizetype size = 5 << 20;
        const QString file = test::writeFile(dir_, QStringLiteral("plain.bin"), test::seededBytes(size, 6));
        const QString trace = dir_.filePath(QStringLiteral("cat.jsonl"));
        auto r = test::runCli({QStringLiteral("trace"), QStringLiteral("-o"), trace, QStringLiteral("--"), QStringLiteral("cat"), file});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.size(), size); // the test reads cat's output through a pipe: sendfile
        qulonglong copied = 0;
        QList<std::pair<qulonglong, qulonglong>> ranges;
        for (const QJsonObject &o : records(trace)) {
            if (o[QStringLiteral("layer")].toString() != QLatin1String("kernel copy"))
                continue;
            QCOMPARE(o[QStringLiteral("file")].toString(), file);
            ranges << std::pair(qulonglong(o[QStringLiteral("offset")].toDouble()), qulonglong(o[QStringLiteral("length")].toDouble()));
            copied += ranges.last().second;
        }
        QCOMPARE(copied, qulonglong(size));
        std::sort(ranges.begin(), ranges.end());
        qulonglong at = 0;
        for (const auto &[offset, length] : ranges) {
            QCOMPARE(offset, at); // one copy after another, no gap, no overlap
            at += length;
        }
    }

    void namesTheLayers()
    {
        const QString trace = dir_.filePath(QStringLiteral("qcow2.jsonl"));
        auto r = test::runCli({QStringLiteral("trace"), QStringLiteral("-o"), trace, QStringLiteral("--"), QStringLiteral("ls"), test::dataPath(QStringLiteral("images/gpt.v3.qcow2"))});
        QCOMPARE(r.exitCode, 0);
        QSet<QString> layers;
        qulonglong bytes = 0;
        for (const QJsonObject &o : records(trace)) {
            layers << o[QStringLiteral("layer")].toString();
            bytes += qulonglong(o[QStringLiteral("length")].toDouble());
        }
        for (const char *layer : {"probe", "qcow2 L1 table", "qcow2 L2 table", "qcow2 data cluster"})
            QVERIFY2(layers.contains(QString::fromLatin1(layer)), layer);
        QVERIFY2(QString::fromUtf8(r.err).contains(QStringLiteral("%1 reads").arg(records(trace).size())), r.err.constData());
        QVERIFY(bytes > 0);
        // Usage errors.
        QCOMPARE(test::runCli({QStringLiteral("trace")}).exitCode, 2);
        QCOMPARE(test::runCli({QStringLiteral("trace"), QStringLiteral("--"), QStringLiteral("nonsense")}).exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestTrace)
#include "tst_trace.moc"
