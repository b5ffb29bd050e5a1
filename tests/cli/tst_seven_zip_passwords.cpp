// SPDX-License-Identifier: MIT
// Encrypted 7z (CLI.md "Passwords"): read through 7-Zip's 7zz in its jail (sandbox/tool_run.h),
// names encrypted (-mhe=on) or content only, solid or not, split into .7z.001 parts; checked
// against `7zz x -p…` file by file on libarchive's own test files and on archives 7-Zip makes.
// No password, or a wrong one, is an error naming the entry with nothing on stdout; damaged data
// is an error, not bytes; the password never reaches any program's argv (strace sees every
// execve), nor what we print.

#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace asc;

class TestSevenZipPasswords : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString passwords_; // "not this one", then the right one

    static QString libarchiveFile(const QString &name) { return QStringLiteral(TEST_DATA_DIR "/encrypted/libarchive/") + name; }
    QString path(const QString &name) const { return dir_.filePath(name); }

    static QByteArray sevenZipCat(const QString &archive, const QString &entry, const QString &password)
    {
        return test::run(QStringLiteral("7zz"), {QStringLiteral("x"), QStringLiteral("-so"), QStringLiteral("-p") + password, archive, entry}).out;
    }

    // `7zz l -slt`'s files (not folders) in archive order.
    static QStringList sevenZipFiles(const QString &archive, const QString &password)
    {
        auto listed = test::run(QStringLiteral("7zz"), {QStringLiteral("l"), QStringLiteral("-slt"), QStringLiteral("-p") + password, archive});
        QStringList files;
        QString current;
        const QList<QByteArray> lines = listed.out.mid(listed.out.indexOf("----------")).split('\n');
        for (const QByteArray &line : lines) {
            if (line.startsWith("Path = "))
                current = QString::fromUtf8(line.mid(7));
            if (line.startsWith("Attributes = ") && !line.contains('D'))
                files << current;
        }
        return files;
    }

    static QByteArray hashLine(const QByteArray &bytes, const QString &name) { return test::sha256(bytes) + "  " + name.toUtf8() + '\n'; }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("7zz"));
        ASC_REQUIRE_TOOL(QStringLiteral("strace"));
        qunsetenv("ARCHIVESCOPE_PASSWORD");
        QVERIFY(dir_.isValid());
        const QByteArray big = test::seededBytes(12 << 20, 7); // streamed, not held whole
        test::writeFile(dir_, QStringLiteral("src/big.bin"), big);
        test::writeFile(dir_, QStringLiteral("src/a.txt"), "alpha\n");
        test::writeFile(dir_, QStringLiteral("src/sub/ünïcödé.txt"), "names in UTF-8\n");
        test::writeFile(dir_, QStringLiteral("src/sub/empty"), QByteArray());
        QVERIFY(QFile::link(QStringLiteral("sub/ünïcödé.txt"), path(QStringLiteral("src/link"))));
        auto made = test::run(QStringLiteral("/bin/sh"),
                              {QStringLiteral("-c"), QStringLiteral("set -e; cd src; "
                                                                    "7zz a -snl -pS3cret -mhe=on ../names.7z . >/dev/null; "
                                                                    "7zz a -snl -pS3cret ../content.7z . >/dev/null; "
                                                                    "7zz a -snl -pS3cret -ms=off ../unsolid.7z a.txt sub >/dev/null; "
                                                                    "7zz a -pS3cret -mhe=on -v3m ../split.7z big.bin a.txt >/dev/null; "
                                                                    "7zz a -pS3cret -mem=AES256 ../aes.zip sub >/dev/null")},
                              300000, dir_.path());
        QVERIFY2(made.exitCode == 0, made.err.constData());
        passwords_ = test::writeFile(dir_, QStringLiteral("passwords"), "not this one\nS3cret\n");
    }

    // libarchive's own encrypted 7z files, each file as 7-Zip extracts it.
    void libarchivesFilesReadAs7ZipDoes_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("content") << QStringLiteral("test_read_format_7zip_encryption.7z");
        QTest::newRow("names") << QStringLiteral("test_read_format_7zip_encryption_header.7z");
        QTest::newRow("partially") << QStringLiteral("test_read_format_7zip_encryption_partially.7z");
    }

    void libarchivesFilesReadAs7ZipDoes()
    {
        QFETCH(QString, file);
        const QString archive = libarchiveFile(file);
        const QStringList files = sevenZipFiles(archive, QStringLiteral("12345678"));
        QVERIFY(!files.isEmpty());
        auto hashed = test::runCliWithPassword({QStringLiteral("hash"), archive}, "12345678");
        QVERIFY2(hashed.exitCode == 0, hashed.err.constData());
        QByteArray expected;
        for (const QString &name : files) {
            const QByteArray bytes = sevenZipCat(archive, name, QStringLiteral("12345678"));
            expected += hashLine(bytes, name);
            auto cat = test::runCliWithPassword({QStringLiteral("cat"), archive + QStringLiteral("!/") + name}, "12345678");
            QVERIFY2(cat.exitCode == 0, cat.err.constData());
            QCOMPARE(cat.out, bytes);
        }
        QCOMPARE(hashed.out, expected);
    }

    void namesEncryptedNeedThePasswordToList()
    {
        const QString archive = path(QStringLiteral("names.7z"));
        auto none = test::runCli({QStringLiteral("ls"), archive});
        QCOMPARE(none.exitCode, 1);
        QCOMPARE(none.out, QByteArray());
        QVERIFY2(none.err.contains("password is needed") && none.err.contains("names.7z"), none.err.constData());

        auto wrong = test::runCliWithPassword({QStringLiteral("ls"), archive}, "wrong one");
        QCOMPARE(wrong.exitCode, 1);
        QCOMPARE(wrong.out, QByteArray());
        QVERIFY2(wrong.err.contains("wrong password"), wrong.err.constData());
        QVERIFY(!wrong.err.contains("wrong one"));

        auto listed = test::runCli({QStringLiteral("--password-file"), passwords_, QStringLiteral("ls"), QStringLiteral("--json"), archive});
        QVERIFY2(listed.exitCode == 0, listed.err.constData());
        QMap<QString, QJsonObject> entries;
        for (const QByteArray &line : listed.out.split('\n'))
            if (!line.isEmpty())
                entries.insert(QJsonDocument::fromJson(line).object().value(QStringLiteral("path")).toString(), QJsonDocument::fromJson(line).object());
        QVERIFY2(entries.contains(QStringLiteral("sub/ünïcödé.txt")), listed.out.constData());
        QCOMPARE(entries.value(QStringLiteral("big.bin")).value(QStringLiteral("size")).toDouble(), double(12 << 20));
        QVERIFY(entries.value(QStringLiteral("big.bin")).value(QStringLiteral("encrypted")).toBool());
        QCOMPARE(entries.value(QStringLiteral("sub")).value(QStringLiteral("type")).toString(), QStringLiteral("dir"));
        QCOMPARE(entries.value(QStringLiteral("link")).value(QStringLiteral("type")).toString(), QStringLiteral("symlink"));
        QCOMPARE(entries.value(QStringLiteral("link")).value(QStringLiteral("target")).toString(), QStringLiteral("sub/ünïcödé.txt"));
    }

    // Every archive's every file, whole (hash walks one 7zz run) and one at a time (cat), against
    // the files they were made from.
    void contentReadsBackExactly_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("names encrypted, solid") << QStringLiteral("names.7z");
        QTest::newRow("content encrypted, solid") << QStringLiteral("content.7z");
        QTest::newRow("not solid") << QStringLiteral("unsolid.7z");
        QTest::newRow("split into .001 .002 ...") << QStringLiteral("split.7z.001");
    }

    void contentReadsBackExactly()
    {
        QFETCH(QString, file);
        const QString archive = path(file);
        auto hashed = test::runCli({QStringLiteral("--password-file"), passwords_, QStringLiteral("hash"), archive});
        QVERIFY2(hashed.exitCode == 0, hashed.err.constData());
        QStringList names{QStringLiteral("a.txt"), QStringLiteral("big.bin"), QStringLiteral("sub/ünïcödé.txt"), QStringLiteral("sub/empty")};
        for (const QString &name : names) {
            QFile source(path(QStringLiteral("src/") + name));
            if (!source.exists())
                continue;
            QVERIFY(source.open(QIODevice::ReadOnly));
            const QByteArray bytes = source.readAll();
            const bool inArchive = !(file == QLatin1String("unsolid.7z") && name == QLatin1String("big.bin")) && !(file == QLatin1String("split.7z.001") && name.startsWith(QLatin1String("sub/")));
            QCOMPARE(hashed.out.contains(hashLine(bytes, name)), inArchive);
            if (!inArchive)
                continue;
            auto cat = test::runCli({QStringLiteral("--password-file"), passwords_, QStringLiteral("cat"), archive + QStringLiteral("!/") + name});
            QVERIFY2(cat.exitCode == 0, cat.err.constData());
            QVERIFY2(cat.out == bytes, qPrintable(name));
        }
    }

    void contentEncryptedListsWithoutButReadsOnlyWithThePassword()
    {
        const QString archive = path(QStringLiteral("content.7z"));
        auto listed = test::runCli({QStringLiteral("ls"), archive});
        QVERIFY2(listed.exitCode == 0, listed.err.constData());
        QVERIFY(listed.out.contains("big.bin"));

        const QString spec = archive + QStringLiteral("!/a.txt");
        auto none = test::runCli({QStringLiteral("cat"), spec});
        QCOMPARE(none.exitCode, 1);
        QCOMPARE(none.out, QByteArray());
        QVERIFY2(none.err.contains("password is needed") && none.err.contains("content.7z!/a.txt"), none.err.constData());

        auto wrong = test::runCliWithPassword({QStringLiteral("cat"), spec}, "Wr0ng");
        QCOMPARE(wrong.exitCode, 1);
        QCOMPARE(wrong.out, QByteArray());
        QVERIFY2(wrong.err.contains("wrong password") && wrong.err.contains("content.7z!/a.txt"), wrong.err.constData());

        const QString target = path(QStringLiteral("extracted"));
        auto extracted = test::runCliWithPassword({QStringLiteral("extract"), archive, QStringLiteral("-C"), target}, "S3cret");
        QVERIFY2(extracted.exitCode == 0, extracted.err.constData());
        QCOMPARE(test::sha256File(target + QStringLiteral("/big.bin")), test::sha256File(path(QStringLiteral("src/big.bin"))));
        QCOMPARE(QFileInfo(target + QStringLiteral("/link")).symLinkTarget(), QFileInfo(target + QStringLiteral("/sub/ünïcödé.txt")).absoluteFilePath());
    }

    // stdin a terminal (a pty), no --password-file, no ARCHIVESCOPE_PASSWORD: the worker asks its
    // parent, which asks on the terminal without echo, again when wrong; names and content open
    // (a zip's too: libarchive's passphrase callback asks the same way).
    void theTerminalIsAskedWhenNoPasswordWasGiven_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::newRow("names encrypted") << QStringLiteral("names.7z!/sub/ünïcödé.txt");
        QTest::newRow("content encrypted") << QStringLiteral("content.7z!/sub/ünïcödé.txt");
        QTest::newRow("zip, WinZip AES (libarchive asks)") << QStringLiteral("aes.zip!/sub/ünïcödé.txt");
    }

    void theTerminalIsAskedWhenNoPasswordWasGiven()
    {
        QFETCH(QString, spec);
        ASC_REQUIRE_TOOL(QStringLiteral("python3"));
        auto r = test::runCliOnTerminal({QStringLiteral("cat"), path(spec)}, {"not it", "S3cret"});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        QVERIFY2(r.out.contains("password for ") && r.out.contains("wrong password for "), r.out.constData());
        QVERIFY2(r.out.contains("names in UTF-8"), r.out.constData());
        QVERIFY2(!r.out.contains("S3cret") && !r.out.contains("not it"), r.out.constData()); // never echoed
    }

    // A byte of the encrypted stream changed: 7zz's decoder or the CRC says so, never bytes with exit 0.
    void damagedDataIsAnError()
    {
        const QString damaged = path(QStringLiteral("damaged.7z"));
        QVERIFY(QFile::copy(path(QStringLiteral("content.7z")), damaged));
        QVERIFY(test::flipByte(damaged, QFileInfo(damaged).size() / 2));
        auto cat = test::runCliWithPassword({QStringLiteral("cat"), damaged + QStringLiteral("!/big.bin")}, "S3cret");
        QCOMPARE(cat.exitCode, 1);
        QVERIFY(cat.out.size() < (12 << 20));
        QVERIFY2(cat.err.contains("damaged.7z"), cat.err.constData());
        auto hashed = test::runCliWithPassword({QStringLiteral("hash"), damaged}, "S3cret");
        QCOMPARE(hashed.exitCode, 1);
        QVERIFY(!hashed.out.contains(test::sha256File(path(QStringLiteral("src/big.bin")))));
    }

    // Every program started on the way (the worker, the jail, 7zz) as strace sees it: the
    // password is in none of their argv, and 7zz gets exactly the table's options.
    void passwordNeverInAnyArgv()
    {
        const QString trace = path(QStringLiteral("execve.trace"));
        qputenv("ARCHIVESCOPE_PASSWORD", "Sup3rSecretWord");
        auto made = test::run(QStringLiteral("7zz"), {QStringLiteral("a"), QStringLiteral("-pSup3rSecretWord"), path(QStringLiteral("word.7z")), path(QStringLiteral("src/a.txt"))});
        QCOMPARE(made.exitCode, 0);
        auto traced = test::run(QStringLiteral("strace"), {QStringLiteral("-f"), QStringLiteral("-qq"), QStringLiteral("-e"), QStringLiteral("trace=execve"),
                                                           QStringLiteral("-s"), QStringLiteral("4096"), QStringLiteral("-o"), trace, QStringLiteral(CLI_PATH),
                                                           QStringLiteral("cat"), path(QStringLiteral("word.7z")) + QStringLiteral("!/a.txt")});
        qunsetenv("ARCHIVESCOPE_PASSWORD");
        QVERIFY2(traced.exitCode == 0, traced.err.constData());
        QCOMPARE(traced.out, QByteArray("alpha\n"));
        QFile log(trace);
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QByteArray execs = log.readAll();
        QVERIFY2(execs.contains("7zz\", [\"/usr/bin/7zz\", \"x\", \"-so\""), execs.constData());
        QVERIFY(execs.contains("archivescope-tool-jail"));
        QVERIFY(!execs.contains("Sup3rSecretWord"));
    }

    // Formats whose encryption we cannot decrypt are errors naming the entry, never ciphertext:
    // libarchive's RAR 2.9 files (content, names, some files).
    void undecryptableRarIsAnErrorNotBytes()
    {
        auto data = test::runCliWithPassword({QStringLiteral("cat"), libarchiveFile(QStringLiteral("test_read_format_rar_encryption_data.rar!/foo.txt"))}, "12345678");
        QCOMPARE(data.exitCode, 1);
        QCOMPARE(data.out, QByteArray());
        QVERIFY2(data.err.contains("foo.txt") && data.err.contains("encrypted"), data.err.constData());
        auto header = test::runCliWithPassword({QStringLiteral("ls"), libarchiveFile(QStringLiteral("test_read_format_rar_encryption_header.rar"))}, "12345678");
        QCOMPARE(header.exitCode, 1);
        QVERIFY2(header.err.contains("encryption"), header.err.constData());
        auto partially = test::runCliWithPassword({QStringLiteral("hash"), libarchiveFile(QStringLiteral("test_read_format_rar_encryption_partially.rar"))}, "12345678");
        QCOMPARE(partially.exitCode, 1);
        QVERIFY(partially.out.contains("  bar.txt\n"));
        QVERIFY(!partially.out.contains("  foo.txt\n"));
    }
};

QTEST_GUILESS_MAIN(TestSevenZipPasswords)
#include "tst_seven_zip_passwords.moc"
