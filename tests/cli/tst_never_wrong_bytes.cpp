// SPDX-License-Identifier: MIT
// Never a wrong byte, one test per class of the failures seen on third-party archives: an entry's
// bytes are what its decoder produced (LHA and RAR5 hand back empty blocks while they decode; those
// once came out as zeros), a checksum mismatch or a stream that ends short is an error naming the
// entry (and leaves no file behind), a cpio hardlink set has its data under every name, a stream
// that decodes to nothing is one empty file, lzop and lzip are decoded and checked by us, and the
// last of two members of one name is the one read. Inputs are made here by the real tools.

#include "test_files.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <tuple>

using namespace asc;

namespace {

// Text that compresses well, as real files do (lh5's long matches, several MiB of window).
QByteArray text(int lines, quint32 seed)
{
    static const char *const words[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"};
    QByteArray out;
    quint32 x = seed;
    for (int i = 0; i < lines; ++i) {
        for (int w = 0; w < 8; ++w) {
            x = x * 1664525u + 1013904223u;
            out += words[(x >> 16) % 10];
            out += ' ';
        }
        out += QByteArray::number(i) + '\n';
    }
    return out;
}

QStringList filesUnder(const QString &root)
{
    QStringList files;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << QDir(root).relativeFilePath(it.next());
    files.sort();
    return files;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

} // namespace

class TestNeverWrongBytes : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString make(const QString &name, const QByteArray &bytes) { return test::writeFile(dir_, name, bytes); }

    // Runs a shell pipeline in the test folder (the tools' own command lines, as a user types them).
    void sh(const QString &script)
    {
        const auto r = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script}, 120000, dir_.path());
        QVERIFY2(r.exitCode == 0, (script.toUtf8() + ": " + r.err).constData());
    }

private Q_SLOTS:
    void initTestCase()
    {
        for (const char *tool : {"lha", "cpio", "lzop", "lzip", "xz", "zstd", "lz4", "bzip2", "python3", "bsdtar"})
            ASC_REQUIRE_TOOL(QString::fromLatin1(tool));
    }

    // lh5/lh6/lh7 long files: the decoder returns empty blocks while it reads input; every byte
    // must still be the decoder's (this once printed 1.2 MB of zeros with exit 0).
    void lhaLongFileIsDecoded_data()
    {
        QTest::addColumn<QString>("method");
        QTest::newRow("lh5") << QStringLiteral("o5");
        QTest::newRow("lh6") << QStringLiteral("o6");
        QTest::newRow("lh7") << QStringLiteral("o7");
    }
    void lhaLongFileIsDecoded()
    {
        QFETCH(QString, method);
        const QByteArray content = text(40000, 7);
        make(QStringLiteral("long.txt"), content);
        const QString archive = QStringLiteral("long-%1.lzh").arg(method);
        sh(QStringLiteral("lha a%1q %2 long.txt").arg(method, archive));
        for (const QString &sandbox : {QString(), QStringLiteral("--no-sandbox")}) {
            QStringList args{QStringLiteral("cat"), dir_.filePath(archive) + QStringLiteral("!/long.txt")};
            if (!sandbox.isEmpty())
                args.prepend(sandbox);
            const auto cat = test::runCli(args);
            QVERIFY2(cat.exitCode == 0, cat.err.constData());
            QCOMPARE(cat.out.size(), content.size());
            QVERIFY(cat.out == content);
        }
    }

    // A stored zip member whose bytes were changed: the decoder cannot notice, only the CRC-32.
    void zipCrcMismatchIsAnError()
    {
        const QByteArray content = QByteArray(200000, 'z');
        make(QStringLiteral("crc.txt"), content);
        const QString zip = dir_.filePath(QStringLiteral("crc.zip"));
        sh(QStringLiteral("python3 -c \"import zipfile; z = zipfile.ZipFile('crc.zip', 'w', zipfile.ZIP_STORED); "
                          "z.write('crc.txt'); z.writestr('ok.txt', 'fine'); z.close()\""));
        QVERIFY(test::flipByte(zip, 100000));
        const auto cat = test::runCli({QStringLiteral("cat"), zip + QStringLiteral("!/crc.txt")});
        QCOMPARE(cat.exitCode, 1);
        QVERIFY2(cat.err.contains("crc.zip!/crc.txt"), cat.err.constData());
        QVERIFY2(cat.err.contains("does not check out"), cat.err.constData());

        QTemporaryDir target;
        const auto extract = test::runCli({QStringLiteral("extract"), zip, QStringLiteral("-C"), target.path()});
        QCOMPARE(extract.exitCode, 1);
        QVERIFY2(extract.err.contains("crc.txt"), extract.err.constData());
        // The damaged member leaves nothing, not even a temporary file; the good one is there.
        QCOMPARE(filesUnder(target.path()), QStringList{QStringLiteral("ok.txt")});
    }

    // A RAR5 member stored encrypted: libarchive 3.6.2 skips the file encryption record and hands
    // the ciphertext back as if it were the content. It is listed as encrypted and reading it is
    // an error naming it; the plain member beside it reads. The archive is written here byte by
    // byte as rarlab's RAR 5.0 technote lays it out (no RAR writer is free software).
    void rar5StoredEncryptedIsNeverRead()
    {
        make(QStringLiteral("mkrar5.py"),
             "import zlib, os, sys\n"
             "def vint(n):\n"
             "    out = bytearray()\n"
             "    while True:\n"
             "        b = n & 0x7f; n >>= 7\n"
             "        if n: out.append(b | 0x80)\n"
             "        else: out.append(b); return bytes(out)\n"
             "def block(body):\n"
             "    size = vint(len(body))\n"
             "    crc = zlib.crc32(size + body)\n"
             "    return crc.to_bytes(4, 'little') + size + body\n"
             "def file_block(name, data, crypt):\n"
             "    extra = b''\n"
             "    if crypt:\n"
             "        rec = vint(1) + vint(0) + vint(1) + bytes([15]) + os.urandom(16) + os.urandom(16) + os.urandom(12)\n"
             "        extra = vint(len(rec)) + rec\n"
             "    flags = 0x2 | (0x1 if extra else 0)\n"
             "    body = vint(2) + vint(flags) + (vint(len(extra)) if extra else b'') + vint(len(data))\n"
             "    body += vint(0) + vint(len(data) if not crypt else len(data)) + vint(0o100644) + vint(0) + vint(1) + vint(len(name)) + name + extra\n"
             "    return block(body) + data\n"
             "out = b'Rar!\\x1a\\x07\\x01\\x00' + block(vint(1) + vint(0) + vint(0))\n"
             "out += file_block(b'plain.txt', b'plain text\\n', False)\n"
             "out += file_block(b'secret.txt', os.urandom(32), True)\n"
             "out += block(vint(5) + vint(0) + vint(0))\n"
             "open(sys.argv[1], 'wb').write(out)\n");
        sh(QStringLiteral("python3 mkrar5.py crypt.rar"));
        const QString rar = dir_.filePath(QStringLiteral("crypt.rar"));
        const auto ls = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), rar});
        QCOMPARE(ls.exitCode, 0);
        QStringList encrypted;
        for (const QByteArray &line : ls.out.split('\n'))
            if (!line.isEmpty() && QJsonDocument::fromJson(line).object().value(QStringLiteral("encrypted")).toBool())
                encrypted << QJsonDocument::fromJson(line).object().value(QStringLiteral("path")).toString();
        QCOMPARE(encrypted, QStringList{QStringLiteral("secret.txt")});
        const auto cat = test::runCli({QStringLiteral("cat"), rar + QStringLiteral("!/secret.txt")});
        QCOMPARE(cat.exitCode, 1);
        QCOMPARE(cat.out, QByteArray());
        QVERIFY2(cat.err.contains("crypt.rar!/secret.txt") && cat.err.contains("encrypted"), cat.err.constData());
        const auto plain = test::runCli({QStringLiteral("cat"), rar + QStringLiteral("!/plain.txt")});
        QCOMPARE(plain.exitCode, 0);
        QCOMPARE(plain.out, QByteArray("plain text\n"));
        const auto hash = test::runCli({QStringLiteral("hash"), rar});
        QCOMPARE(hash.exitCode, 1);
        QVERIFY2(hash.out.contains("  plain.txt\n") && !hash.out.contains("secret"), hash.out.constData());
    }

    // An LHA member whose compressed data was changed: its CRC-16 (or the decoder) fails.
    void lhaDamageIsAnError()
    {
        make(QStringLiteral("lha.txt"), text(20000, 3));
        sh(QStringLiteral("lha aq damaged.lzh lha.txt"));
        const QString archive = dir_.filePath(QStringLiteral("damaged.lzh"));
        QVERIFY(test::flipByte(archive, QFileInfo(archive).size() / 2));
        const auto cat = test::runCli({QStringLiteral("cat"), archive + QStringLiteral("!/lha.txt")});
        QCOMPARE(cat.exitCode, 1);
        QVERIFY2(cat.err.contains("damaged.lzh!/lha.txt"), cat.err.constData());
    }

    // newc cpio keeps a hardlink set's data with its last link: every name gets it.
    void cpioHardlinkSetHasDataUnderEveryName()
    {
        const QByteArray content = text(100, 11);
        QDir(dir_.path()).mkpath(QStringLiteral("links"));
        make(QStringLiteral("links/a"), content);
        sh(QStringLiteral("cd links && ln a b && ln a c && ls | cpio -o -H newc --quiet > ../links.cpio"));
        const QString archive = dir_.filePath(QStringLiteral("links.cpio"));
        QTemporaryDir target;
        const auto extract = test::runCli({QStringLiteral("extract"), archive, QStringLiteral("-C"), target.path()});
        QVERIFY2(extract.exitCode == 0, extract.err.constData());
        for (const char *name : {"a", "b", "c"}) {
            QCOMPARE(readAll(target.filePath(QString::fromLatin1(name))), content);
            const auto cat = test::runCli({QStringLiteral("cat"), archive + QStringLiteral("!/") + QString::fromLatin1(name)});
            QVERIFY2(cat.exitCode == 0, cat.err.constData());
            QCOMPARE(cat.out, content);
        }
    }

    // A compressed stream of nothing is one file of 0 bytes, as gzip -d and xz -d make it.
    void emptyCompressedStreamIsOneEmptyFile_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("suffix");
        QTest::newRow("gzip") << QStringLiteral("gzip") << QStringLiteral("gz");
        QTest::newRow("xz") << QStringLiteral("xz") << QStringLiteral("xz");
        QTest::newRow("zstd") << QStringLiteral("zstd") << QStringLiteral("zst");
        QTest::newRow("bzip2") << QStringLiteral("bzip2") << QStringLiteral("bz2");
        QTest::newRow("lz4") << QStringLiteral("lz4") << QStringLiteral("lz4");
        QTest::newRow("lzip") << QStringLiteral("lzip") << QStringLiteral("lz");
    }
    void emptyCompressedStreamIsOneEmptyFile()
    {
        QFETCH(QString, tool);
        QFETCH(QString, suffix);
        const QString name = QStringLiteral("nothing-%1.%2").arg(tool, suffix);
        sh(QStringLiteral("printf '' | %1 -c > %2").arg(tool, name));
        const auto ls = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), dir_.filePath(name)});
        QVERIFY2(ls.exitCode == 0, ls.err.constData());
        const QList<QByteArray> lines = ls.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 1);
        const QJsonObject entry = QJsonDocument::fromJson(lines.first()).object();
        QCOMPARE(entry.value(QStringLiteral("path")).toString(), QStringLiteral("nothing-%1").arg(tool));
        QCOMPARE(entry.value(QStringLiteral("size")).toInt(-1), 0);
        const auto cat = test::runCli({QStringLiteral("cat"), dir_.filePath(name) + QStringLiteral("!/nothing-") + tool});
        QVERIFY2(cat.exitCode == 0, cat.err.constData());
        QVERIFY(cat.out.isEmpty());
    }

    // A compressed stream of zeros is a file of zeros, not an empty tar (two zero blocks start
    // it): listed as one entry of its size. An empty tar, compressed, stays an empty tar.
    void compressedZerosAreAFile()
    {
        sh(QStringLiteral("head -c 3000000 /dev/zero | gzip -c | gzip -c > zeros.gz.gz && head -c 100000 /dev/zero | zstd -q -c > zeros.zst && "
                          "tar -cf empty.tar --files-from /dev/null && gzip -c empty.tar > empty.tar.gz"));
        for (const auto &[file, name, size] : {std::tuple("zeros.gz.gz", "zeros.gz", 3000000), std::tuple("zeros.zst", "zeros", 100000)}) {
            const auto ls = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), dir_.filePath(QString::fromLatin1(file))});
            QVERIFY2(ls.exitCode == 0, ls.err.constData());
            const QJsonObject entry = QJsonDocument::fromJson(ls.out.trimmed()).object();
            QCOMPARE(entry.value(QStringLiteral("path")).toString(), QString::fromLatin1(name));
            const auto cat = test::runCli({QStringLiteral("cat"), dir_.filePath(QString::fromLatin1(file)) + QStringLiteral("!/") + QString::fromLatin1(name)});
            QCOMPARE(cat.out, QByteArray(size, '\0'));
        }
        const auto info = test::runCli({QStringLiteral("info"), dir_.filePath(QStringLiteral("empty.tar.gz"))});
        QVERIFY2(info.out.contains("format: tar"), info.out.constData());
        const auto ls = test::runCli({QStringLiteral("ls"), dir_.filePath(QStringLiteral("empty.tar.gz"))});
        QCOMPARE(ls.exitCode, 0);
        QVERIFY(ls.out.isEmpty());
    }

    // .tar.lzo is decoded by our own filter (bsdtar would run the external lzop, which the sandbox
    // forbids), in the sandboxed worker.
    void lzopTarballIsRead()
    {
        const QByteArray content = text(5000, 5);
        QDir(dir_.path()).mkpath(QStringLiteral("lzo"));
        make(QStringLiteral("lzo/member.txt"), content);
        sh(QStringLiteral("tar -C lzo -cf - member.txt | lzop -c > member.tar.lzo"));
        const QString archive = dir_.filePath(QStringLiteral("member.tar.lzo"));
        const auto info = test::runCli({QStringLiteral("info"), archive});
        QVERIFY2(info.exitCode == 0, info.err.constData());
        QVERIFY2(info.out.contains("lzop"), info.out.constData());
        const auto cat = test::runCli({QStringLiteral("cat"), archive + QStringLiteral("!/member.txt")});
        QVERIFY2(cat.exitCode == 0, cat.err.constData());
        QVERIFY(cat.out == content);
    }

    // A damaged stream whose magic matched fails with its decoder's error and offset, never as
    // "not a recognised archive", and never with exit 0.
    void damagedStreamGivesTheDecodersError_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("suffix");
        QTest::newRow("xz") << QStringLiteral("xz") << QStringLiteral("xz");
        QTest::newRow("gzip") << QStringLiteral("gzip") << QStringLiteral("gz");
        QTest::newRow("lzip") << QStringLiteral("lzip") << QStringLiteral("lz");
        QTest::newRow("lzop") << QStringLiteral("lzop") << QStringLiteral("lzo");
    }
    void damagedStreamGivesTheDecodersError()
    {
        QFETCH(QString, tool);
        QFETCH(QString, suffix);
        make(QStringLiteral("plain-%1").arg(tool), test::seededBytes(300000, 9) + text(3000, 1));
        const QString name = QStringLiteral("damaged-%1.%2").arg(tool, suffix);
        sh(QStringLiteral("%1 -c plain-%1 > %2").arg(tool, name));
        QVERIFY(test::flipByte(dir_.filePath(name), QFileInfo(dir_.filePath(name)).size() / 2));
        const auto cat = test::runCli({QStringLiteral("cat"), dir_.filePath(name) + QStringLiteral("!/damaged-") + tool});
        QCOMPARE(cat.exitCode, 1);
        QVERIFY2(!cat.err.contains("not a recognised"), cat.err.constData());
        QVERIFY2(cat.err.contains("offset"), cat.err.constData());
    }

    // What lzip refuses we refuse: an unknown version, a dictionary size out of range, a
    // truncated member after the first ("LZIP" and nothing more).
    void lzipHeadersAreChecked()
    {
        make(QStringLiteral("fox"), "The quick brown fox jumps over the lazy dog\n");
        sh(QStringLiteral("lzip -c fox > fox.lz && cp fox.lz v2.lz && cp fox.lz dict.lz && cp fox.lz trailing.lz && printf LZIP >> trailing.lz"));
        const QString good = dir_.filePath(QStringLiteral("fox.lz"));
        const auto cat = test::runCli({QStringLiteral("cat"), good + QStringLiteral("!/fox")});
        QVERIFY2(cat.exitCode == 0, cat.err.constData());
        QCOMPARE(cat.out, QByteArray("The quick brown fox jumps over the lazy dog\n"));
        {
            QFile f(dir_.filePath(QStringLiteral("v2.lz")));
            QVERIFY(f.open(QIODevice::ReadWrite) && f.seek(4) && f.putChar(2));
        }
        {
            QFile f(dir_.filePath(QStringLiteral("dict.lz")));
            QVERIFY(f.open(QIODevice::ReadWrite) && f.seek(5) && f.putChar(11)); // 2 KiB: below lzip's minimum
        }
        for (const char *bad : {"v2", "dict", "trailing"}) {
            const QString path = dir_.filePath(QString::fromLatin1(bad) + QStringLiteral(".lz"));
            const auto reference = test::run(QStringLiteral("lzip"), {QStringLiteral("-dc"), path});
            QVERIFY2(reference.exitCode != 0, bad);
            const auto ours = test::runCli({QStringLiteral("cat"), path + QStringLiteral("!/") + QString::fromLatin1(bad)});
            QVERIFY2(ours.exitCode == 1, bad);
            QVERIFY2(ours.err.contains("lzip"), ours.err.constData());
        }
    }

    // An entry without a name cannot be listed or extracted: it is reported, with its offset,
    // and the exit status says so (bsdtar: "empty or unreadable filename", exit 1).
    void emptyNameIsReported()
    {
        sh(QStringLiteral("python3 -c \"import io, tarfile\n"
                          "with tarfile.open('noname.tar', 'w', format=tarfile.USTAR_FORMAT) as t:\n"
                          "    for name in ('a.txt', '', 'c.txt'):\n"
                          "        i = tarfile.TarInfo(name); i.size = 2; t.addfile(i, io.BytesIO(b'x\\\\n'))\""));
        const auto ls = test::runCli({QStringLiteral("ls"), dir_.filePath(QStringLiteral("noname.tar"))});
        QCOMPARE(ls.exitCode, 1);
        QVERIFY2(ls.err.contains("noname.tar: offset 1024: entry 2 has an empty name"), ls.err.constData());
        QVERIFY(ls.out.contains("a.txt") && ls.out.contains("c.txt"));
    }

    // Two members of one name: the last is the one read and extracted, as bsdtar extracts it.
    void lastMemberOfANameIsRead()
    {
        sh(QStringLiteral("python3 -W ignore -c \"import zipfile; z = zipfile.ZipFile('twice.zip', 'w'); "
                          "z.writestr('same.txt', 'first\\n'); z.writestr('same.txt', 'second\\n'); z.close()\""));
        const QString zip = dir_.filePath(QStringLiteral("twice.zip"));
        const auto cat = test::runCli({QStringLiteral("cat"), zip + QStringLiteral("!/same.txt")});
        QVERIFY2(cat.exitCode == 0, cat.err.constData());
        QCOMPARE(cat.out, QByteArray("second\n"));
        QTemporaryDir theirs;
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-xf"), zip, QStringLiteral("-C"), theirs.path()}).exitCode, 0);
        QCOMPARE(readAll(theirs.filePath(QStringLiteral("same.txt"))), cat.out);
    }
};

QTEST_GUILESS_MAIN(TestNeverWrongBytes)
#include "tst_never_wrong_bytes.moc"
