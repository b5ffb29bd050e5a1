// SPDX-License-Identifier: MIT
// The CLI's first commands: --version, --help, formats, strategies, cat (byte-exact, EPIPE
// quiet), exit codes and one-line errors naming the file.

#include "test_files.h"

#include <QFile>
#include <QTest>
#include <fcntl.h>
#include <unistd.h>

using namespace asc;

class TestCliBasics : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QByteArray catToFileHash(const QString &spec)
    {
        const QString out = dir_.filePath(QStringLiteral("cat.out"));
        auto r = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("\"$0\" cat \"$1\" > \"$2\""),
                                                       QStringLiteral(CLI_PATH), spec, out});
        if (r.exitCode != 0)
            return "exit " + QByteArray::number(r.exitCode) + ": " + r.err;
        QByteArray hash = test::sha256File(out);
        QFile::remove(out);
        return hash;
    }

private Q_SLOTS:
    void versionAndHelp()
    {
        auto v = test::runCli({QStringLiteral("--version")});
        QCOMPARE(v.exitCode, 0);
        QVERIFY(v.out.startsWith("archivescope-cli 0."));
        QVERIFY(v.out.contains("libarchive"));
        auto h = test::runCli({QStringLiteral("--help")});
        QCOMPARE(h.exitCode, 0);
        QVERIFY(h.out.contains("cat SPEC"));
        for (const char *command : {"formats", "strategies", "cat", "ls", "info"}) {
            auto sub = test::runCli({QString::fromLatin1(command), QStringLiteral("--help")});
            QCOMPARE(sub.exitCode, 0);
            QVERIFY2(sub.out.contains("Usage:"), command);
        }
    }

    void usageErrorsExit2()
    {
        QCOMPARE(test::runCli({}).exitCode, 2);
        QCOMPARE(test::runCli({QStringLiteral("no-such-command")}).exitCode, 2);
        QCOMPARE(test::runCli({QStringLiteral("cat")}).exitCode, 2);
        QCOMPARE(test::runCli({QStringLiteral("cat"), QStringLiteral("--bogus"), QStringLiteral("x")}).exitCode, 2);
    }

    void formatsAndStrategies()
    {
        auto f = test::runCli({QStringLiteral("formats")});
        QCOMPARE(f.exitCode, 0);
        for (const char *name : {"tar", "zip", "7z", "iso9660", "cpio"})
            QVERIFY2(f.out.contains(QByteArray("\n") + name + " ") || f.out.startsWith(QByteArray(name) + " "), name);
        auto s = test::runCli({QStringLiteral("strategies")});
        QCOMPARE(s.exitCode, 0);
        for (const char *name : {"read ", "pread ", "mmap ", "uring-qd4 ", "buffered-stream-zero-copy "})
            QVERIFY2(s.out.contains(name), name);
        QVERIFY(s.out.contains("async backend: io_uring") || s.out.contains("async backend: thread pool"));
    }

    void catIsByteExact()
    {
        // 1 GiB: sparse with random blocks scattered through it, so holes and data both travel.
        const QString big = dir_.filePath(QStringLiteral("big.bin"));
        int fd = ::open(big.toLocal8Bit().constData(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
        QVERIFY(fd >= 0);
        QCOMPARE(::ftruncate(fd, off_t(1) << 30), 0);
        for (int i = 0; i < 64; ++i) {
            const QByteArray block = test::seededBytes(64 * 1024 + i, quint32(i));
            QCOMPARE(::pwrite(fd, block.constData(), size_t(block.size()), off_t(i) * (16 << 20) + i * 4097), ssize_t(block.size()));
        }
        ::close(fd);
        QCOMPARE(catToFileHash(big), test::sha256File(big));
        const QString empty = test::writeFile(dir_, QStringLiteral("empty"), {});
        QCOMPARE(catToFileHash(empty), test::sha256(QByteArray()));
        const QString odd = test::writeFile(dir_, QStringLiteral("odd"), test::seededBytes(3 * 1024 * 1024 + 7, 3));
        QCOMPARE(catToFileHash(odd), test::sha256File(odd));

        // A reader that goes away: no message, no failure.
        auto piped = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("\"$0\" cat \"$1\" | head -c 10 > /dev/null"),
                                                           QStringLiteral(CLI_PATH), big});
        QCOMPARE(piped.exitCode, 0);
        QCOMPARE(piped.err, QByteArray());
    }

    void missingFileFailsWithOneLine()
    {
        auto r = test::runCli({QStringLiteral("cat"), dir_.filePath(QStringLiteral("missing"))});
        QCOMPARE(r.exitCode, 1);
        QCOMPARE(r.out, QByteArray());
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY(r.err.startsWith("archivescope-cli: " + dir_.filePath(QStringLiteral("missing")).toUtf8() + ": "));
        QVERIFY(r.err.contains("No such file"));
        auto d = test::runCli({QStringLiteral("cat"), dir_.path()});
        QCOMPARE(d.exitCode, 1);
        QVERIFY(d.err.contains("directory"));
    }
};

QTEST_GUILESS_MAIN(TestCliBasics)
#include "tst_cli_basics.moc"
