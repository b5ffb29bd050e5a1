// SPDX-License-Identifier: MIT
// `grep` against GNU grep on the same files: for each syntax (basic, -E, -F, -P) and -i, the
// lines we print for a tar of a folder are the lines `grep -rn` prints for the folder itself
// (LC_ALL=C.UTF-8, Unicode text, CRLF lines, a last line without a newline, long lines);
// archives and compressed files inside are searched in their decoded content; binary files,
// -l, -c, --json; exit 0/1/2 as grep's; and down a disk's partition and logical volume.

#include "fixtures.h"
#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTest>
#include <csignal>

using namespace asc;

class TestGrepCommand : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString tree_, tar_;

    static QSet<QByteArray> lines(const QByteArray &out)
    {
        QSet<QByteArray> set;
        for (const QByteArray &line : out.split('\n'))
            if (!line.isEmpty())
                set.insert(line);
        return set;
    }

    test::RunResult gnuGrep(const QStringList &flags, const QString &pattern)
    {
        QStringList args{QStringLiteral("-c"), QStringLiteral("cd \"$0\" && LC_ALL=C.UTF-8 grep -rn \"$@\""), tree_};
        args << flags << QStringLiteral("--") << pattern << QStringLiteral(".");
        return test::run(QStringLiteral("/bin/sh"), args);
    }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("grep"));
        tree_ = dir_.filePath(QStringLiteral("tree"));
        QVERIFY(QDir().mkpath(tree_ + QStringLiteral("/etc")));
        QVERIFY(QDir().mkpath(tree_ + QStringLiteral("/var/log")));
        auto put = [&](const QString &name, const QByteArray &bytes) {
            QFile f(tree_ + QLatin1Char('/') + name);
            return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
        };
        QVERIFY(put(QStringLiteral("etc/hosts"), "127.0.0.1 localhost\n::1 localhost ip6-localhost\n10.0.0.7 db.example.com db\n"));
        QVERIFY(put(QStringLiteral("etc/motd"), "Grüße aus München\nGRÜSSE\nStraße (street) [x] {y} a+b a?b a|b\nno newline at the end"));
        QVERIFY(put(QStringLiteral("var/log/app.log"), test::seededWords(3 << 20, 7))); // many chunks of 1 MiB
        QVERIFY(put(QStringLiteral("var/log/windows.txt"), "first\r\nERROR: disk full\r\nlast\r\n"));
        QVERIFY(put(QStringLiteral("var/log/long.txt"), QByteArray(300000, 'x') + "needle" + QByteArray(300000, 'y') + '\n'));
        tar_ = dir_.filePath(QStringLiteral("tree.tar"));
        auto made = test::run(QStringLiteral("tar"), {QStringLiteral("-cf"), tar_, QStringLiteral("-C"), tree_, QStringLiteral(".")});
        QCOMPARE(made.exitCode, 0);
    }

    void linesAreGnuGrepsLines_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("pattern");
        QTest::newRow("basic") << QStringList{} << QStringLiteral("local\\(host\\)");
        QTest::newRow("basic literals") << QStringList{} << QStringLiteral("a+b a?b a|b");
        QTest::newRow("basic interval") << QStringList{} << QStringLiteral("[0-9]\\{2\\}\\.0");
        QTest::newRow("extended") << QStringList{QStringLiteral("-E")} << QStringLiteral("(db|ip6)-?[a-z]+");
        QTest::newRow("fixed") << QStringList{QStringLiteral("-F")} << QStringLiteral("(street) [x]");
        QTest::newRow("perl") << QStringList{QStringLiteral("-P")} << QStringLiteral("\\bdisk\\s+full\\b");
        QTest::newRow("caseless unicode") << QStringList{QStringLiteral("-i")} << QStringLiteral("grüsse");
        QTest::newRow("anchors") << QStringList{QStringLiteral("-E")} << QStringLiteral("^[0-9.]+ [a-z]+$");
        QTest::newRow("last line without newline") << QStringList{} << QStringLiteral("end$");
        QTest::newRow("long line") << QStringList{QStringLiteral("-F")} << QStringLiteral("needle");
        QTest::newRow("many chunks") << QStringList{QStringLiteral("-E")} << QStringLiteral("\\b(window|seek) point\\b");
    }
    void linesAreGnuGrepsLines()
    {
        QFETCH(QStringList, flags);
        QFETCH(QString, pattern);
        auto gnu = gnuGrep(flags, pattern);
        QVERIFY2(gnu.exitCode == 0, gnu.err.constData()); // every row finds something
        QSet<QByteArray> expected;
        for (const QByteArray &line : lines(gnu.out))
            expected.insert(tar_.toUtf8() + "!/" + line.mid(2)); // "./etc/hosts:1:..." -> "tree.tar!/etc/hosts:1:..."
        QStringList args{QStringLiteral("grep")};
        args << flags << QStringLiteral("--") << pattern << tar_;
        auto ours = test::runCli(args);
        QCOMPARE(ours.exitCode, gnu.exitCode);
        const QSet<QByteArray> got = lines(ours.out);
        QCOMPARE(got.size(), expected.size());
        QCOMPARE(got, expected);
    }

    void archivesAndCompressedFilesInsideAreSearched()
    {
        const QString outer = dir_.filePath(QStringLiteral("outer.tar"));
        auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"),
                                                          QStringLiteral("cd \"$0\" && mkdir -p o && tar -czf o/inner.tar.gz -C tree etc && gzip -c tree/var/log/windows.txt > o/windows.txt.gz && tar -cf outer.tar -C o ."),
                                                          dir_.path()});
        QCOMPARE(made.exitCode, 0);
        auto r = test::runCli({QStringLiteral("grep"), QStringLiteral("-F"), QStringLiteral("localhost"), outer});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(outer.toUtf8() + "!/inner.tar.gz!/etc/hosts:2:::1 localhost ip6-localhost\n"), r.out.constData());
        auto gz = test::runCli({QStringLiteral("grep"), QStringLiteral("ERROR"), outer});
        QCOMPARE(gz.exitCode, 0);
        QVERIFY2(gz.out.contains(outer.toUtf8() + "!/windows.txt.gz!/windows.txt:2:ERROR: disk full\r\n"), gz.out.constData());
    }

    // Hundreds of small .gz files inside a tar.gz (a tarball of /usr/share/doc): each is searched
    // from the bytes the walk goes by, not opened again afterwards (which decoded the outer stream
    // up to it once per file). Counted in the bytes the command reads.
    void manySmallArchivesInsideAreReadInOnePass()
    {
        const QString tree = dir_.filePath(QStringLiteral("docs"));
        QByteArray filler = test::seededWords(24 << 20, 9); // the outer stream spans several index points
        test::writeFile(dir_, QStringLiteral("docs/aaa-filler.txt"), filler);
        for (int i = 0; i < 300; ++i) {
            const QString name = QStringLiteral("docs/pkg%1/changelog").arg(i, 3, 10, QLatin1Char('0'));
            test::writeFile(dir_, name, "package " + QByteArray::number(i) + (i == 123 ? " fixed CVE-2026-0042\n" : " nothing\n"));
            QCOMPARE(test::run(QStringLiteral("gzip"), {QStringLiteral("-9"), dir_.filePath(name)}).exitCode, 0);
        }
        const QString archive = dir_.filePath(QStringLiteral("docs.tar.gz"));
        QCOMPARE(test::run(QStringLiteral("tar"), {QStringLiteral("czf"), archive, QStringLiteral("-C"), dir_.path(), QStringLiteral("docs")}).exitCode, 0);
        QCOMPARE(test::runCli({QStringLiteral("index"), archive}).exitCode, 0); // members reached through it
        const qint64 size = QFileInfo(archive).size();
        auto r = test::runCli({QStringLiteral("grep"), QStringLiteral("-F"), QStringLiteral("CVE-2026-0042"), archive});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, archive.toUtf8() + "!/docs/pkg123/changelog.gz!/changelog:1:package 123 fixed CVE-2026-0042\n");
        QVERIFY2(r.work.rchar >= size && r.work.rchar < 3 * size, qPrintable(QStringLiteral("read %1 bytes of a %2-byte archive").arg(r.work.rchar).arg(size)));
    }

    void binaryFilesCountsAndNames()
    {
        const QString bin = dir_.filePath(QStringLiteral("bin.tar"));
        auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"),
                                                          QStringLiteral("cd \"$0\" && mkdir -p b && printf 'ab\\000cd match\\nmatch\\n' > b/blob && printf 'match\\nno\\nmatch\\n' > b/text && tar -cf bin.tar -C b ."),
                                                          dir_.path()});
        QCOMPARE(made.exitCode, 0);
        auto r = test::runCli({QStringLiteral("grep"), QStringLiteral("match"), bin});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(bin.toUtf8() + "!/blob: binary file matches\n"), r.out.constData());
        QCOMPARE(r.out.count("blob"), 1);
        auto text = test::runCli({QStringLiteral("grep"), QStringLiteral("-a"), QStringLiteral("match"), bin});
        QVERIFY2(text.out.contains(bin.toUtf8() + "!/blob:2:match\n"), text.out.constData());
        auto count = test::runCli({QStringLiteral("grep"), QStringLiteral("-c"), QStringLiteral("match"), bin});
        QVERIFY2(count.out.contains(bin.toUtf8() + "!/text:2\n"), count.out.constData());
        auto names = test::runCli({QStringLiteral("grep"), QStringLiteral("-l"), QStringLiteral("match"), bin});
        QCOMPARE(lines(names.out), (QSet<QByteArray>{bin.toUtf8() + "!/blob", bin.toUtf8() + "!/text"}));
        auto json = test::runCli({QStringLiteral("grep"), QStringLiteral("--json"), QStringLiteral("no"), bin});
        const QJsonObject o = QJsonDocument::fromJson(json.out.split('\n').first()).object();
        QCOMPARE(o[QStringLiteral("line")].toInt(), 2);
        QCOMPARE(o[QStringLiteral("text")].toString(), QStringLiteral("no"));
        QCOMPARE(o[QStringLiteral("spec")].toString(), bin + QStringLiteral("!/text"));
    }

    void exitStatusIsGreps()
    {
        QCOMPARE(test::runCli({QStringLiteral("grep"), QStringLiteral("nothing-like-this"), tar_}).exitCode, 1);
        auto bad = test::runCli({QStringLiteral("grep"), QStringLiteral("-E"), QStringLiteral("(unclosed"), tar_});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("bad pattern"), bad.err.constData());
        QCOMPARE(test::runCli({QStringLiteral("grep"), QStringLiteral("x"), dir_.filePath(QStringLiteral("missing.tar"))}).exitCode, 2);
        // The pattern is never a file the worker may read.
        auto worker = test::runCli({QStringLiteral("grep"), QStringLiteral("/etc/passwd"), tar_});
        QCOMPARE(worker.exitCode, 1);
    }

    // A worker that dies mid-search: the message names the file searched, not the pattern
    // (the pattern is the first word, but never the SPEC).
    void aDeadWorkerNamesTheFileNotThePattern()
    {
        QByteArray text;
        for (int i = 0; text.size() < (24 << 20); ++i)
            text += "line " + QByteArray::number(i * 7919 % 1000003) + " of a long log nobody matches\n";
        test::writeFile(dir_, QStringLiteral("long.log"), text);
        QCOMPARE(test::run(QStringLiteral("bzip2"), {QStringLiteral("-1f"), dir_.filePath(QStringLiteral("long.log"))}).exitCode, 0);
        const QString log = dir_.filePath(QStringLiteral("long.log.bz2"));
        QProcess cli;
        cli.start(QStringLiteral(CLI_PATH), {QStringLiteral("grep"), QStringLiteral("-c"), QStringLiteral("pattern-words"), log});
        QVERIFY(cli.waitForStarted());
        pid_t worker = 0;
        while (worker <= 0 && cli.state() == QProcess::Running)
            worker = pid_t(test::firstChildOf(cli.processId()));
        QVERIFY2(worker > 0, "the search ended before its worker was seen");
        QCOMPARE(::kill(worker, SIGKILL), 0);
        QVERIFY(cli.waitForFinished(20000));
        QCOMPARE(cli.exitCode(), 1);
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QVERIFY2(err.contains(log + QStringLiteral(": the worker")) && err.contains(QStringLiteral("signal 9")) && !err.contains(QStringLiteral("pattern-words")), qPrintable(err));
    }

    void downADisksVolumes()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("xz"));
        const QString disk = test::unpackDisk(dir_, QStringLiteral("lvm-gpt.raw.xz"), QStringLiteral("lvm-gpt.raw"));
        QVERIFY(!disk.isEmpty());
        auto found = test::runCli({QStringLiteral("grep"), QStringLiteral("-F"), QStringLiteral("rhel-root"), disk});
        QVERIFY2(found.exitCode == 0, found.err.constData());
        for (const char *where : {"!/p1!/etc/fstab:1:", "!/p2!/rhel/root!/etc/fstab:1:", "!/p2!/rhel/home!/etc/fstab:1:"})
            QVERIFY2(found.out.contains(disk.toUtf8() + where + "/dev/mapper/rhel-root / xfs defaults 0 0\n"), found.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestGrepCommand)
#include "tst_grep_command.moc"
