// SPDX-License-Identifier: MIT
// Passwords for encrypted zip entries (CLI.md): --password-file (tried in turn) and
// ARCHIVESCOPE_PASSWORD decrypt ZipCrypto and WinZip AES entries to what 7-Zip extracts, on
// libzip's own test files and on zips 7-Zip makes; without a password, or with a wrong one, the
// entry is an error naming it with nothing on stdout and nothing left by extract; the password
// never appears in what we print.

#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QTest>

using namespace asc;

class TestArchivePasswords : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    static QString thirdParty(const QString &name) { return QStringLiteral(TEST_DATA_DIR "/thirdparty/libzip/") + name; }

    QString passwordFile(const QString &name, const QByteArray &lines) { return test::writeFile(dir_, name, lines); }

    static QByteArray sevenZipCat(const QString &archive, const QString &entry, const QString &password)
    {
        return test::run(QStringLiteral("7zz"), {QStringLiteral("x"), QStringLiteral("-so"), QStringLiteral("-p") + password, archive, entry}).out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("7zz"));
        qunsetenv("ARCHIVESCOPE_PASSWORD");
        auto made = test::run(QStringLiteral("/bin/sh"),
                              {QStringLiteral("-c"), QStringLiteral("set -e; printf 'secret content\\n' > s.txt; head -c 200000 /dev/urandom > big.bin; "
                                                                    "7zz a -pSECRET -mem=ZipCrypto zc.zip s.txt big.bin >/dev/null; "
                                                                    "7zz a -pSECRET -mem=AES256 aes.zip s.txt big.bin >/dev/null")},
                              120000, dir_.path());
        QVERIFY2(made.exitCode == 0, made.err.constData());
    }

    void libzipsAesFilesDecryptAs7ZipDoes_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("aes128") << QStringLiteral("encrypt-aes128.zip");
        QTest::newRow("aes192") << QStringLiteral("encrypt-aes192.zip");
        QTest::newRow("aes256") << QStringLiteral("encrypt-aes256.zip");
    }

    void libzipsAesFilesDecryptAs7ZipDoes()
    {
        QFETCH(QString, file);
        const QString zip = thirdParty(file);
        auto ls = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), zip});
        QCOMPARE(ls.exitCode, 0);
        QJsonObject entry;
        for (const QByteArray &line : ls.out.split('\n'))
            if (!line.isEmpty() && QJsonDocument::fromJson(line).object().value(QStringLiteral("encrypted")).toBool())
                entry = QJsonDocument::fromJson(line).object();
        QCOMPARE(entry.value(QStringLiteral("path")).toString(), QStringLiteral("encrypted")); // "plain" beside it is not
        const QString spec = zip + QStringLiteral("!/") + entry.value(QStringLiteral("path")).toString();
        const QByteArray expected = sevenZipCat(zip, entry.value(QStringLiteral("path")).toString(), QStringLiteral("foofoofoo"));
        QVERIFY(!expected.isEmpty());

        auto none = test::runCli({QStringLiteral("cat"), spec});
        QCOMPARE(none.exitCode, 1);
        QCOMPARE(none.out, QByteArray());
        QVERIFY2(none.err.contains("password is needed") && none.err.contains(file.toUtf8()), none.err.constData());

        const QString passwords = passwordFile(file + QStringLiteral(".pw"), "not this one\nfoofoofoo\n");
        auto right = test::runCli({QStringLiteral("--password-file"), passwords, QStringLiteral("cat"), spec});
        QVERIFY2(right.exitCode == 0, right.err.constData());
        QCOMPARE(right.out, expected);

        auto wrong = test::runCliWithPassword({QStringLiteral("cat"), spec}, "wrong password here");
        QCOMPARE(wrong.exitCode, 1);
        QCOMPARE(wrong.out, QByteArray());
        QVERIFY2(wrong.err.contains("wrong password"), wrong.err.constData());
        QVERIFY(!wrong.err.contains("wrong password here"));
    }

    void sevenZipsZipCryptoAndAesExtractWhole_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("ZipCrypto") << QStringLiteral("zc.zip");
        QTest::newRow("AES-256") << QStringLiteral("aes.zip");
    }

    void sevenZipsZipCryptoAndAesExtractWhole()
    {
        QFETCH(QString, file);
        const QString zip = dir_.filePath(file);
        const QString target = dir_.filePath(file + QStringLiteral(".out"));
        auto extracted = test::runCliWithPassword({QStringLiteral("extract"), zip, QStringLiteral("-C"), target}, "SECRET");
        QVERIFY2(extracted.exitCode == 0, extracted.err.constData());
        QCOMPARE(test::sha256File(target + QStringLiteral("/big.bin")), test::sha256File(dir_.filePath(QStringLiteral("big.bin"))));
        QCOMPARE(test::sha256File(target + QStringLiteral("/s.txt")), test::sha256("secret content\n"));

        auto hashed = test::runCliWithPassword({QStringLiteral("hash"), zip}, "SECRET");
        QVERIFY2(hashed.exitCode == 0, hashed.err.constData());
        QVERIFY(hashed.out.contains(test::sha256("secret content\n") + "  s.txt\n"));
        QVERIFY(!hashed.out.contains("SECRET") && !hashed.err.contains("SECRET"));

        // Without a password nothing is written, not even an empty file.
        const QString refused = dir_.filePath(file + QStringLiteral(".refused"));
        auto without = test::runCli({QStringLiteral("extract"), zip, QStringLiteral("-C"), refused});
        QCOMPARE(without.exitCode, 1);
        QVERIFY2(without.err.contains("password is needed"), without.err.constData());
        QCOMPARE(QDir(refused).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
    }

    void aMissingPasswordFileIsAUsageError()
    {
        auto r = test::runCli({QStringLiteral("--password-file"), dir_.filePath(QStringLiteral("none")), QStringLiteral("ls"), dir_.filePath(QStringLiteral("zc.zip"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--password-file"));
    }
};

QTEST_GUILESS_MAIN(TestArchivePasswords)
#include "tst_archive_passwords.moc"
