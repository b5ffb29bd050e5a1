// SPDX-License-Identifier: MIT
// `hash SPEC`: its lines are what sha256sum, md5sum and b2sum print for an extraction of SPEC
// made by bsdtar, and `sha256sum -c` run in that extraction accepts them; a folder inside the
// archive prints paths relative to it; a hardlink prints its target's hash; a corrupt member is
// reported (exit 1) while the others are still printed; an unknown algorithm is a usage error.

#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace asc;

class TestHashCommand : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString archive_; // tar.gz made by GNU tar
    QString extracted_; // bsdtar's extraction of it

    test::RunResult shellIn(const QString &cwd, const QString &script)
    {
        return test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script}, 120000, cwd);
    }

    static QStringList sortedLines(const QByteArray &text)
    {
        QStringList lines;
        for (const QByteArray &line : text.split('\n'))
            if (!line.isEmpty())
                lines << QString::fromUtf8(line);
        lines.sort();
        return lines;
    }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        ASC_REQUIRE_TOOL(QStringLiteral("b2sum"));
        auto made = shellIn(dir_.path(), QStringLiteral("set -e; mkdir -p src/docs/deeper src/bin; printf 'hello, reader\\n' > src/docs/readme.txt; "
                                                        "head -c 3000000 /dev/urandom > src/bin/data.bin; : > src/empty; "
                                                        "printf 'deep\\n' > src/docs/deeper/notes.txt; ln src/docs/readme.txt src/docs/again.txt; "
                                                        "ln -s readme.txt src/docs/link; tar -czf tree.tar.gz -C src .; "
                                                        "mkdir x; bsdtar -xf tree.tar.gz -C x"));
        QVERIFY2(made.exitCode == 0, made.err.constData());
        archive_ = dir_.filePath(QStringLiteral("tree.tar.gz"));
        extracted_ = dir_.filePath(QStringLiteral("x"));
    }

    void linesMatchTheCoreutilsOfAnExtraction()
    {
        for (const char *algo : {"sha256", "md5", "sha1", "sha512", "blake2b"}) {
            auto ours = test::runCli({QStringLiteral("hash"), archive_, QStringLiteral("--algo"), QLatin1String(algo)});
            QVERIFY2(ours.exitCode == 0, ours.err.constData());
            const QString tool = QLatin1String(algo) == QLatin1String("blake2b") ? QStringLiteral("b2sum") : QLatin1String(algo) + QStringLiteral("sum");
            auto reference = shellIn(extracted_, QStringLiteral("find . -type f | sed 's|^\\./||' | xargs %1").arg(tool));
            QCOMPARE(reference.exitCode, 0);
            QCOMPARE(sortedLines(ours.out), sortedLines(reference.out));
        }
        auto ours = test::runCli({QStringLiteral("hash"), archive_});
        QFile sums(dir_.filePath(QStringLiteral("SHA256SUMS")));
        QVERIFY(sums.open(QIODevice::WriteOnly));
        sums.write(ours.out);
        sums.close();
        auto check = shellIn(extracted_, QStringLiteral("sha256sum -c --strict ../SHA256SUMS"));
        QVERIFY2(check.exitCode == 0, check.out + check.err);
        QCOMPARE(sortedLines(ours.out).size(), 5); // readme, again (one is a hardlink), notes, data, empty; no symlink or folder
    }

    void crc32IsZlibs()
    {
        auto ours = test::runCli({QStringLiteral("hash"), archive_ + QStringLiteral("!/docs/readme.txt"), QStringLiteral("--algo"), QStringLiteral("crc32")});
        QVERIFY2(ours.exitCode == 0, ours.err.constData());
        // python3 -c 'import zlib; print("%08x" % zlib.crc32(b"hello, reader\n"))'
        auto reference = test::run(QStringLiteral("python3"), {QStringLiteral("-c"), QStringLiteral("import zlib; print('%08x  readme.txt' % zlib.crc32(b'hello, reader\\n'))")});
        QCOMPARE(ours.out, reference.out);
    }

    void aFolderPrintsPathsRelativeToIt()
    {
        auto ours = test::runCli({QStringLiteral("hash"), archive_ + QStringLiteral("!/docs"), QStringLiteral("--json")});
        QVERIFY2(ours.exitCode == 0, ours.err.constData());
        QStringList paths;
        for (const QByteArray &line : ours.out.split('\n')) {
            if (line.isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            QCOMPARE(o.value(QStringLiteral("algo")).toString(), QStringLiteral("sha256"));
            paths << o.value(QStringLiteral("path")).toString();
            if (paths.last() == QLatin1String("readme.txt")) {
                QCOMPARE(o.value(QStringLiteral("size")).toInt(), 14);
                QCOMPARE(o.value(QStringLiteral("hash")).toString().toLatin1(), test::sha256("hello, reader\n"));
            }
        }
        paths.sort();
        QCOMPARE(paths, (QStringList{QStringLiteral("again.txt"), QStringLiteral("deeper/notes.txt"), QStringLiteral("readme.txt")}));
    }

    void aCorruptMemberIsReportedAndTheOthersPrinted()
    {
        // A zip whose second member's data is flipped: its CRC fails, the first still prints.
        auto made = shellIn(dir_.path(), QStringLiteral("set -e; mkdir -p z; printf 'first member\\n' > z/a.txt; head -c 20000 /dev/urandom > z/b.bin; "
                                                        "printf 'third member\\n' > z/c.txt; cd z && bsdtar --format zip --options zip:compression=store -cf ../bad.zip a.txt b.bin c.txt"));
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const QString zipPath = dir_.filePath(QStringLiteral("bad.zip"));
        QVERIFY(test::flipByteAfter(zipPath, "b.bin", 10000)); // inside b.bin's stored data
        auto ours = test::runCli({QStringLiteral("hash"), zipPath});
        QCOMPARE(ours.exitCode, 1);
        QVERIFY2(ours.out.contains(test::sha256("first member\n") + "  a.txt\n"), ours.out.constData());
        QVERIFY2(ours.out.contains(test::sha256("third member\n") + "  c.txt\n"), ours.out.constData());
        QVERIFY(!ours.out.contains("b.bin"));
        QVERIFY2(ours.err.contains("b.bin"), ours.err.constData());
    }

    void anUnknownAlgorithmIsAUsageError()
    {
        auto ours = test::runCli({QStringLiteral("hash"), archive_, QStringLiteral("--algo"), QStringLiteral("sha3")});
        QCOMPARE(ours.exitCode, 2);
        QVERIFY(ours.err.contains("sha3"));
    }
};

QTEST_GUILESS_MAIN(TestHashCommand)
#include "tst_hash_command.moc"
