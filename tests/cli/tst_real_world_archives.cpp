// SPDX-License-Identifier: MIT
// Archives as the world writes them, made here with real tools (GNU tar, bsdtar, 7zz, cpio,
// gzip/xz/zstd/lzip) and with Python writing raw bytes: names in legacy charsets and names that
// are no charset at all, sparse members of every layout, damaged headers and entries libarchive
// cannot use, empty archives, look-alike text files, single compressed files' sizes, repeated
// names and what extraction does with names already taken.

#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace asc;

class TestRealWorldArchives : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString path(const QString &name) const { return dir_.filePath(name); }

    static void needTool(const char *tool)
    {
        if (!test::haveTool(QString::fromLatin1(tool)))
            QFAIL(qPrintable(QStringLiteral("%1 is not installed: scripts/setup.sh installs it").arg(QLatin1String(tool))));
    }

    // Runs a shell script with the CLI as $CLI and the scratch folder as the working directory:
    // printf writes the raw bytes a QString argument could not carry (octal: dash has no \x).
    test::RunResult shell(const QString &script)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("CLI"), QStringLiteral(CLI_PATH));
        process.setProcessEnvironment(env);
        process.setWorkingDirectory(dir_.path());
        process.start(QStringLiteral("sh"), {QStringLiteral("-c"), script});
        test::RunResult result;
        if (!process.waitForFinished(120000)) {
            process.kill();
            process.waitForFinished();
            return result;
        }
        result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        result.out = process.readAllStandardOutput();
        result.err = process.readAllStandardError();
        return result;
    }

    // `cat ARCHIVE!/NAME` with NAME's bytes given as printf octal escapes.
    test::RunResult catRaw(const QString &archive, const QString &octalName)
    {
        return shell(QStringLiteral("\"$CLI\" cat \"%1!/$(printf '%2')\"").arg(archive, octalName));
    }

    void python(const QString &script)
    {
        auto r = test::run(QStringLiteral("python3"), {QStringLiteral("-c"), script, dir_.path()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    static QList<QByteArray> names(const QByteArray &jsonLines, const char *key = "path_hex")
    {
        QList<QByteArray> out;
        for (const QByteArray &line : jsonLines.split('\n')) {
            if (line.isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            const QString hex = o.value(QLatin1String(key)).toString();
            out << (hex.isEmpty() ? o.value(QStringLiteral("path")).toString().toUtf8() : QByteArray::fromHex(hex.toLatin1()));
        }
        return out;
    }

    // bsdtar -t prints bytes it cannot show as \ooo and a backslash as \\.
    static QByteArray unescapeBsdtar(const QByteArray &line)
    {
        QByteArray out;
        for (qsizetype i = 0; i < line.size(); ++i) {
            if (line[i] == '\\' && i + 3 < line.size() + 0 && line.mid(i + 1, 3).toInt(nullptr, 8) > 0 && QByteArray("0123").contains(line[i + 1])) {
                out += char(line.mid(i + 1, 3).toInt(nullptr, 8));
                i += 3;
            } else if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '\\') {
                out += '\\';
                ++i;
            } else {
                out += line[i];
            }
        }
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        // A zip without the UTF-8 flag (as WinZip and old Info-ZIP wrote), names in CP866 and a
        // name that is no charset at all; a GNU tar and a cpio with raw bytes.
        python(QStringLiteral(R"PY(
import io, sys, tarfile, zipfile, os
d = sys.argv[1]
class Raw(zipfile.ZipInfo):
    def _encodeFilenameFlags(self):
        return self.filename.encode('latin-1'), self.flag_bits & ~0x800
z = zipfile.ZipFile(os.path.join(d, 'legacy.zip'), 'w')
for name, data in ((u'Привет.txt'.encode('cp866'), b'cp866 text\n'), (b'\xff\xfe.bin', b'no charset\n'), (u'日本.txt'.encode('shift_jis'), b'sjis text\n')):
    i = Raw(name.decode('latin-1')); i.external_attr = 0o644 << 16
    z.writestr(i, data)
z.close()
t = tarfile.open(os.path.join(d, 'raw.tar'), 'w', format=tarfile.GNU_FORMAT, encoding='latin-1', errors='surrogateescape')
for name, data in ((u'Документ.txt'.encode('koi8-r'), b'koi8 text\n'), (b'\xff\xfe-bad\\name.txt', b'bad name\n')):
    i = tarfile.TarInfo(name.decode('latin-1')); i.size = len(data); i.mtime = 1700000000; i.mode = 0o644
    t.addfile(i, io.BytesIO(data))
t.close()
)PY"));
        auto cpio = shell(QStringLiteral("set -e; mkdir -p cpiosrc && cd cpiosrc && printf 'euc\\n' > \"$(printf '\\306\\374\\313\\334.txt')\" && "
                                         "ls | cpio -o -H newc > ../raw.cpio 2>/dev/null"));
        QVERIFY2(cpio.exitCode == 0, cpio.err.constData());
    }

    void cleanupTestCase()
    {
        // QDir cannot remove names that are not UTF-8.
        test::run(QStringLiteral("rm"), {QStringLiteral("-rf"), dir_.path()});
    }

    // --- 1. names that are not UTF-8 -------------------------------------------------------

    void legacyNamesAreAddressedByTheirBytes()
    {
        // A tar's names are shown as stored: one that is no charset is addressed by its bytes.
        auto ls = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), path(QStringLiteral("raw.tar"))});
        QCOMPARE(ls.exitCode, 0);
        const QList<QByteArray> stored = names(ls.out);
        QVERIFY(stored.contains(QByteArray("\xe4\xcf\xcb\xd5\xcd\xc5\xce\xd4.txt"))); // "Документ.txt" in KOI8-R
        // cat, info, extract and bench by the raw bytes, as printf makes them.
        const QString koi = QStringLiteral("\\344\\317\\313\\325\\315\\305\\316\\324.txt");
        auto cat = catRaw(QStringLiteral("raw.tar"), koi);
        QCOMPARE(cat.exitCode, 0);
        QCOMPARE(cat.out, QByteArray("koi8 text\n"));
        auto info = shell(QStringLiteral("\"$CLI\" info --json \"raw.tar!/$(printf '%1')\"").arg(koi));
        QCOMPARE(info.exitCode, 0);
        auto extract = shell(QStringLiteral("\"$CLI\" extract \"raw.tar!/$(printf '%1')\" -C ex1").arg(koi));
        QVERIFY2(extract.exitCode == 0, extract.err.constData());
        const QByteArray native = QFile::encodeName(path(QStringLiteral("ex1"))) + "/\xe4\xcf\xcb\xd5\xcd\xc5\xce\xd4.txt";
        struct stat st {};
        QVERIFY2(::stat(native.constData(), &st) == 0 && st.st_size == 10, "the file is written under its raw bytes");
        auto bench = shell(QStringLiteral("\"$CLI\" bench \"raw.tar!/$(printf '%1')\" --strategy source --sizes 4K --runs 1 --warmup 0 --json b.json").arg(koi));
        QVERIFY2(bench.exitCode == 0, bench.err.constData());
        // A name that is not there is still "no entry", with the bytes escaped in the message.
        auto missing = catRaw(QStringLiteral("raw.tar"), QStringLiteral("\\376\\377"));
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains("\\xfe\\xff"), missing.err.constData());
    }

    // A zip without the UTF-8 flag is read as unzip, 7-Zip and Windows read it: CP437 (the dot
    // stays). With a charset chosen, a name that does not decode from it keeps its bytes: it is
    // listed, shown escaped and read by them, never dropped ("entry 5 has an empty name").
    void zipNamesDefaultToCp437AndNeverVanish()
    {
        auto ls = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), path(QStringLiteral("legacy.zip"))});
        QCOMPARE(ls.exitCode, 0);
        const QList<QByteArray> shown = names(ls.out);
        QCOMPARE(shown.size(), 3);
        QVERIFY2(shown.contains(QStringLiteral("Åα¿óÑΓ.txt").toUtf8()), ls.out.constData());
        QVERIFY2(shown.contains((QString(QChar(0xA0)) + QStringLiteral("■.bin")).toUtf8()), ls.out.constData());
        auto cat = test::runCli({QStringLiteral("cat"), path(QStringLiteral("legacy.zip")) + QStringLiteral("!/Åα¿óÑΓ.txt")});
        QCOMPARE(cat.out, QByteArray("cp866 text\n"));

        auto sjis = test::runCli({QStringLiteral("--charset"), QStringLiteral("SHIFT_JIS"), QStringLiteral("ls"), QStringLiteral("--json"), path(QStringLiteral("legacy.zip"))});
        QVERIFY2(sjis.exitCode == 0, sjis.err.constData());
        QCOMPARE(sjis.out.count('\n'), 3);
        QVERIFY2(names(sjis.out).contains(QStringLiteral("日本.txt").toUtf8()), sjis.out.constData());
        // The CP866 name is no Shift JIS: its bytes stay, listed and readable by them.
        QVERIFY2(names(sjis.out).contains(QByteArray("\x8f\xe0\xa8\xa2\xa5\xe2.txt")), sjis.out.constData());
        auto byBytes = shell(QStringLiteral("\"$CLI\" --charset SHIFT_JIS cat \"legacy.zip!/$(printf '\\217\\340\\250\\242\\245\\342.txt')\""));
        QCOMPARE(byBytes.exitCode, 0);
        QCOMPARE(byBytes.out, QByteArray("cp866 text\n"));
    }

    void tarAndCpioRawNames()
    {
        auto tar = catRaw(QStringLiteral("raw.tar"), QStringLiteral("\\344\\317\\313\\325\\315\\305\\316\\324.txt"));
        QCOMPARE(tar.exitCode, 0);
        QCOMPARE(tar.out, QByteArray("koi8 text\n"));
        auto cpio = catRaw(QStringLiteral("raw.cpio"), QStringLiteral("\\306\\374\\313\\334.txt"));
        QCOMPARE(cpio.exitCode, 0);
        QCOMPARE(cpio.out, QByteArray("euc\n"));
        // bsdtar agrees on the bytes of every name.
        needTool("bsdtar");
        auto bsd = test::run(QStringLiteral("bsdtar"), {QStringLiteral("-tf"), path(QStringLiteral("raw.tar"))});
        auto ours = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), path(QStringLiteral("raw.tar"))});
        QList<QByteArray> theirs;
        for (const QByteArray &line : bsd.out.split('\n')) {
            if (!line.isEmpty())
                theirs << unescapeBsdtar(line);
        }
        QCOMPARE(names(ours.out), theirs);
    }

    void textListingEscapesWhatIsNotUtf8()
    {
        auto ls = test::runCli({QStringLiteral("ls"), path(QStringLiteral("raw.tar"))});
        QCOMPARE(ls.exitCode, 0);
        // Each entry on one line; bytes outside UTF-8 as \xNN and a backslash doubled.
        QVERIFY2(ls.out.contains("\\xff\\xfe-bad\\\\name.txt\n"), ls.out.constData());
        QVERIFY2(ls.out.contains("\\xe4\\xcf"), ls.out.constData());
        QCOMPARE(ls.out.count('\n'), 2);
    }

    void charsetDecodesLegacyNames()
    {
        auto ls = test::runCli({QStringLiteral("--charset"), QStringLiteral("CP866"), QStringLiteral("ls"), path(QStringLiteral("legacy.zip"))});
        QCOMPARE(ls.exitCode, 0);
        QVERIFY2(ls.out.contains(QStringLiteral("Привет.txt").toUtf8()), ls.out.constData());
        auto cat = test::runCli({QStringLiteral("--charset=CP866"), QStringLiteral("cat"), path(QStringLiteral("legacy.zip")) + QStringLiteral("!/Привет.txt")});
        QCOMPARE(cat.exitCode, 0);
        QCOMPARE(cat.out, QByteArray("cp866 text\n"));
        auto koi = test::runCli({QStringLiteral("--charset"), QStringLiteral("KOI8-R"), QStringLiteral("cat"), path(QStringLiteral("raw.tar")) + QStringLiteral("!/Документ.txt")});
        QCOMPARE(koi.exitCode, 0);
        QCOMPARE(koi.out, QByteArray("koi8 text\n"));
        auto unknown = test::runCli({QStringLiteral("--charset"), QStringLiteral("NO-SUCH-CHARSET"), QStringLiteral("ls"), path(QStringLiteral("legacy.zip"))});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY(unknown.err.contains("unknown charset"));
    }

    void outerFileNameNeedNotBeUtf8()
    {
        auto r = shell(QStringLiteral("set -e; cp raw.tar \"$(printf 'outer-\\351.tar')\"; \"$CLI\" cat \"$(printf 'outer-\\351.tar')!/$(printf '\\344\\317\\313\\325\\315\\305\\316\\324.txt')\""));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("koi8 text\n"));
        auto missing = shell(QStringLiteral("\"$CLI\" ls \"$(printf 'nothere-\\351.tar')\""));
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains("nothere-\\xe9.tar"), missing.err.constData());
    }

    // --- 2. sparse members ------------------------------------------------------------------

    void sparseMembersReadBackExactly_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("gnu 0.0") << QStringLiteral("tar --sparse --sparse-version=0.0 -cf \"$OUT\" -C sp .");
        QTest::newRow("gnu 0.1") << QStringLiteral("tar --sparse --sparse-version=0.1 -cf \"$OUT\" -C sp .");
        QTest::newRow("gnu 1.0") << QStringLiteral("tar --sparse --sparse-version=1.0 -cf \"$OUT\" -C sp .");
        QTest::newRow("oldgnu") << QStringLiteral("tar --sparse --format=oldgnu -cf \"$OUT\" -C sp .");
        QTest::newRow("gnu format") << QStringLiteral("tar --sparse --format=gnu -cf \"$OUT\" -C sp .");
        QTest::newRow("bsdtar pax") << QStringLiteral("bsdtar --format=pax -cf \"$OUT\" -C sp .");
    }

    void sparseMembersReadBackExactly()
    {
        QFETCH(QString, command);
        needTool("tar");
        needTool("bsdtar");
        // Every layout: all hole, leading, trailing, middle, many small holes.
        auto made = shell(QStringLiteral(R"SH(set -e; rm -rf sp; mkdir sp
truncate -s 1279 sp/allhole
python3 - <<'EOF'
f=open('sp/lead','wb'); f.seek(100000); f.write(b'x'*5000); f.close()
f=open('sp/trail','wb'); f.write(b'y'*5000); f.truncate(200000); f.close()
f=open('sp/mid','wb'); f.write(b'a'*5000); f.seek(100000); f.write(b'b'*5000); f.close()
f=open('sp/many','wb')
for i in range(50): f.seek(i*16384); f.write(b'z'*100)
f.truncate(50*16384+7000); f.close()
EOF
OUT=sparse.tar; rm -f $OUT; )SH") +
                          command);
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const QStringList files = {QStringLiteral("allhole"), QStringLiteral("lead"), QStringLiteral("trail"), QStringLiteral("mid"), QStringLiteral("many")};
        const QString extractDir = path(QStringLiteral("spx"));
        QDir(extractDir).removeRecursively();
        auto extracted = test::runCli({QStringLiteral("extract"), path(QStringLiteral("sparse.tar")), QStringLiteral("-C"), extractDir});
        QVERIFY2(extracted.exitCode == 0, extracted.err.constData());
        for (const QString &name : files) {
            QFile original(path(QStringLiteral("sp/") + name));
            QVERIFY(original.open(QIODevice::ReadOnly));
            const QByteArray expected = original.readAll();
            auto cat = test::runCli({QStringLiteral("cat"), path(QStringLiteral("sparse.tar")) + QStringLiteral("!/") + name});
            QCOMPARE(cat.exitCode, 0);
            QVERIFY2(cat.out == expected, qPrintable(QStringLiteral("%1: cat gave %2 bytes, expected %3").arg(name).arg(cat.out.size()).arg(expected.size())));
            QFile out(extractDir + QLatin1Char('/') + name);
            QVERIFY(out.open(QIODevice::ReadOnly));
            QVERIFY2(out.readAll() == expected, qPrintable(name));
        }
        // Extraction leaves holes as holes: the all-hole member allocates nothing.
        struct stat st {};
        QVERIFY(::stat(QFile::encodeName(extractDir + QStringLiteral("/trail")).constData(), &st) == 0);
        QCOMPARE(st.st_size, off_t(200000));
        QVERIFY2(st.st_blocks * 512 < 200000, "the trailing hole stays a hole");
        // The `source` strategy reads the logical bytes too.
        auto bench = test::runCli({QStringLiteral("bench"), path(QStringLiteral("sparse.tar")) + QStringLiteral("!/lead"), QStringLiteral("--strategy"),
                                   QStringLiteral("source"), QStringLiteral("--sizes"), QStringLiteral("64K"), QStringLiteral("--runs"), QStringLiteral("1"),
                                   QStringLiteral("--warmup"), QStringLiteral("0"), QStringLiteral("--json"), path(QStringLiteral("sparse.json"))});
        QVERIFY2(bench.exitCode == 0, bench.err.constData());
        QFile result(path(QStringLiteral("sparse.json")));
        QVERIFY(result.open(QIODevice::ReadOnly));
        const QJsonObject json = QJsonDocument::fromJson(result.readAll()).object();
        QCOMPARE(json[QStringLiteral("target")].toObject()[QStringLiteral("bytes")].toDouble(), 105000.0);
        const QJsonObject point = json[QStringLiteral("points")].toArray().first().toObject();
        QCOMPARE(point[QStringLiteral("runs")].toArray().first().toObject()[QStringLiteral("bytes")].toDouble(), 105000.0);
    }

    // --- 3. warnings and failures -----------------------------------------------------------

    void damagedHeaderIsReportedAndSkipped()
    {
        auto made = shell(QStringLiteral("set -e; mkdir -p three; for i in 1 2 3; do echo \"file $i\" > three/f$i; done; tar -cf three.tar -C three f1 f2 f3"));
        QVERIFY2(made.exitCode == 0, made.err.constData());
        QFile tar(path(QStringLiteral("three.tar")));
        QVERIFY(tar.open(QIODevice::ReadOnly));
        QByteArray bytes = tar.readAll();
        bytes[1024 + 148] = '9'; // the second header's checksum no longer matches
        bytes[1024 + 149] = '9';
        test::writeFile(dir_, QStringLiteral("damaged.tar"), bytes);
        auto ls = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), path(QStringLiteral("damaged.tar"))});
        QCOMPARE(ls.exitCode, 1);
        QCOMPARE(names(ls.out), (QList<QByteArray>{"f1", "f3"}));
        QVERIFY2(ls.err.contains("damaged.tar: offset 1024: damaged header, skipped"), ls.err.constData());
        auto cat = test::runCli({QStringLiteral("cat"), path(QStringLiteral("damaged.tar")) + QStringLiteral("!/f3")});
        QCOMPARE(cat.exitCode, 1);
        QCOMPARE(cat.out, QByteArray("file 3\n"));
        auto extract = test::runCli({QStringLiteral("extract"), path(QStringLiteral("damaged.tar")), QStringLiteral("-C"), path(QStringLiteral("dx"))});
        QCOMPARE(extract.exitCode, 1);
        QVERIFY(QFile::exists(path(QStringLiteral("dx/f1"))) && QFile::exists(path(QStringLiteral("dx/f3"))));
        auto info = test::runCli({QStringLiteral("info"), path(QStringLiteral("damaged.tar"))});
        QCOMPARE(info.exitCode, 0); // info reads the first header only: nothing to report
        // The undamaged archive reports nothing and exits 0.
        auto clean = test::runCli({QStringLiteral("ls"), path(QStringLiteral("three.tar"))});
        QCOMPARE(clean.exitCode, 0);
        QVERIFY(clean.err.isEmpty());
    }

    void unreadableEntryIsListedAndTheRestRead()
    {
        // An LHA level-2 archive whose middle entry is a symlink without a target: libarchive
        // fails that entry (ARCHIVE_FAILED); bsdtar reports it and goes on, so do we.
        python(QStringLiteral(R"PY(
import struct, sys, os
def crc16(data, crc=0):
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc
def ext(t, data): return struct.pack('<H', 3 + len(data)) + bytes([t]) + data
def entry(name, mode, data=b''):
    exts = ext(0x00, b'\0\0') + ext(0x01, name) + ext(0x50, struct.pack('<H', mode)) + struct.pack('<H', 0)
    h = bytearray(struct.pack('<H', 24 + len(exts)) + b'-lh0-' + struct.pack('<III', len(data), len(data), 1700000000) + bytes([0x20, 2]))
    h += struct.pack('<H', crc16(data)) + b'U' + exts
    h[27:29] = struct.pack('<H', crc16(bytes(h)))
    return bytes(h) + data
open(os.path.join(sys.argv[1], 'broken.lzh'), 'wb').write(entry(b'a.txt', 0o100644, b'alpha\n') + entry(b'brokenlink', 0o120777) + entry(b'c.txt', 0o100644, b'gamma\n') + b'\0')
)PY"));
        auto ls = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), path(QStringLiteral("broken.lzh"))});
        QCOMPARE(ls.exitCode, 1);
        QCOMPARE(names(ls.out), (QList<QByteArray>{"a.txt", "c.txt"}));
        QVERIFY2(ls.err.contains("unreadable entry: Unknown symlink-name"), ls.err.constData());
        auto cat = test::runCli({QStringLiteral("cat"), path(QStringLiteral("broken.lzh")) + QStringLiteral("!/c.txt")});
        QCOMPARE(cat.out, QByteArray("gamma\n"));
        auto extract = test::runCli({QStringLiteral("extract"), path(QStringLiteral("broken.lzh")), QStringLiteral("-C"), path(QStringLiteral("lx"))});
        QCOMPARE(extract.exitCode, 1);
        QVERIFY(extract.out.contains("extracted 2 files"));
    }

    // --- 4. detection -----------------------------------------------------------------------

    void emptyArchivesAreEmptyArchives()
    {
        needTool("7zz");
        python(QStringLiteral(R"PY(
import sys, os, zipfile
z = zipfile.ZipFile(os.path.join(sys.argv[1], 'empty-big.zip'), 'w')
z.comment = b'c' * 60000   # an empty archive well over tar's 20 KiB of padding
z.close()
zipfile.ZipFile(os.path.join(sys.argv[1], 'empty.zip'), 'w').close()
)PY"));
        auto made = shell(QStringLiteral("set -e; mkdir -p emptydir; cd emptydir; 7zz a -bd ../empty.7z . >/dev/null; printf '' | cpio -o -H newc > ../empty.cpio 2>/dev/null"));
        QVERIFY2(made.exitCode == 0, made.err.constData());
        for (const char *name : {"empty.zip", "empty-big.zip", "empty.7z", "empty.cpio"}) {
            auto ls = test::runCli({QStringLiteral("ls"), path(QString::fromLatin1(name))});
            QVERIFY2(ls.exitCode == 0, qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(name), QString::fromUtf8(ls.err))));
            QVERIFY(ls.out.isEmpty());
        }
        // A blank "disk" of zero blocks is still not a tar.
        test::writeFile(dir_, QStringLiteral("zeros.img"), QByteArray(1 << 20, '\0'));
        auto zeros = test::runCli({QStringLiteral("ls"), path(QStringLiteral("zeros.img"))});
        QCOMPARE(zeros.exitCode, 1);
    }

    void textFilesAreNotMtree()
    {
        test::writeFile(dir_, QStringLiteral("note.txt"), "hello world\n");
        auto text = test::runCli({QStringLiteral("ls"), path(QStringLiteral("note.txt"))});
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(text.err.contains("not a recognised archive"), text.err.constData());
        test::writeFile(dir_, QStringLiteral("manifest"), "#mtree\n./a type=file\n./d type=dir\n");
        auto mtree = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), path(QStringLiteral("manifest"))});
        QCOMPARE(mtree.exitCode, 0);
        QCOMPARE(names(mtree.out), (QList<QByteArray>{"a", "d"}));
        // Without "mode=", files get 0644 and folders 0755 less the umask (as bsdtar).
        const mode_t mask = ::umask(022);
        ::umask(mask);
        auto extract = test::runCli({QStringLiteral("extract"), path(QStringLiteral("manifest")), QStringLiteral("-C"), path(QStringLiteral("mx"))});
        QCOMPARE(extract.exitCode, 0);
        struct stat st {};
        QVERIFY(::stat(QFile::encodeName(path(QStringLiteral("mx/a"))).constData(), &st) == 0);
        QCOMPARE(st.st_mode & 0777, 0644u & ~mask);
        QVERIFY(::stat(QFile::encodeName(path(QStringLiteral("mx/d"))).constData(), &st) == 0);
        QCOMPARE(st.st_mode & 0777, 0755u & ~mask);
        // A manifest that gives a size but no content: the file is refused, not made of zeros
        // (bsdtar writes 5 zero bytes).
        test::writeFile(dir_, QStringLiteral("sized"), "#mtree\n./s type=file size=5\n");
        auto sized = test::runCli({QStringLiteral("extract"), path(QStringLiteral("sized")), QStringLiteral("-C"), path(QStringLiteral("sx"))});
        QCOMPARE(sized.exitCode, 1);
        QVERIFY(!QFile::exists(path(QStringLiteral("sx/s"))));
        // One line longer than libarchive's mtree bidder reads (Go's compress/bzip2 e.txt.bz2 and
        // pierrec/lz4's e.txt.lz4: 100,003 digits), compressed: one file, never "Line too long".
        needTool("bzip2");
        needTool("lz4");
        test::writeFile(dir_, QStringLiteral("e.txt"), QByteArray(100003, '7') + '\n');
        auto compressed = shell(QStringLiteral("bzip2 -kf e.txt && lz4 -qf e.txt e.txt.lz4"));
        QCOMPARE(compressed.exitCode, 0);
        for (const char *name : {"e.txt.bz2", "e.txt.lz4"}) {
            auto cat = test::runCli({QStringLiteral("cat"), path(QString::fromLatin1(name)) + QStringLiteral("!/e.txt")});
            QVERIFY2(cat.exitCode == 0, cat.err.constData());
            QCOMPARE(cat.out, QByteArray(100003, '7') + '\n');
        }
    }

    void singleCompressedFilesReportWhatTheyRecord()
    {
        for (const char *tool : {"gzip", "xz", "zstd", "lzip", "bzip2"})
            needTool(tool);
        // 3 MB of incompressible bytes (above the size counted by decoding) and a small text.
        test::writeFile(dir_, QStringLiteral("big"), test::seededBytes(3000000, 7));
        auto made = shell(QStringLiteral("set -e; seq 1 1000 > small; touch -d @1700000000 small big; for f in small big; do "
                                         "gzip -kf $f; xz -kf -T2 $f; zstd -qf $f; lzip -kf $f; bzip2 -kf $f; done; "
                                         "cat small.gz small.gz > twice.gz; split -b 1000000 big part.; for p in part.a?; do gzip -c $p; done > members.gz"));
        QVERIFY2(made.exitCode == 0, made.err.constData());
        struct Case {
            const char *file;
            double size; // -1: null
        };
        const Case cases[] = {{"small.gz", 3893}, {"small.xz", 3893}, {"small.zst", 3893}, {"small.lz", 3893}, {"small.bz2", 3893}, {"big.gz", 3000000}, {"big.xz", 3000000}, {"big.zst", 3000000}, {"big.lz", 3000000}, {"big.bz2", -1}, {"twice.gz", 7786}};
        for (const Case &c : cases) {
            auto ls = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), path(QString::fromLatin1(c.file))});
            QCOMPARE(ls.exitCode, 0);
            const QJsonObject o = QJsonDocument::fromJson(ls.out.trimmed()).object();
            if (c.size < 0)
                QVERIFY2(o[QStringLiteral("size")].isNull(), c.file);
            else
                QVERIFY2(o[QStringLiteral("size")].toDouble() == c.size, qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(c.file), QString::fromUtf8(ls.out))));
        }
        // gzip records the file's mtime.
        auto gz = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), path(QStringLiteral("big.gz"))});
        QCOMPARE(QJsonDocument::fromJson(gz.out.trimmed()).object()[QStringLiteral("mtime")].toDouble(), 1700000000.0);
        // Several large members: the last ISIZE is not the size; unknown, and cat is exact.
        auto members = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), path(QStringLiteral("members.gz"))});
        QVERIFY2(QJsonDocument::fromJson(members.out.trimmed()).object()[QStringLiteral("size")].isNull(), members.out.constData());
        auto cat = test::runCli({QStringLiteral("cat"), path(QStringLiteral("members.gz")) + QStringLiteral("!/members")});
        QCOMPARE(test::sha256(cat.out), test::sha256File(path(QStringLiteral("big"))));
    }

    // --- 5. repeated names, overwrites and counts ------------------------------------------

    void appendedMembersTheLastWins()
    {
        auto made = shell(QStringLiteral("set -e; mkdir -p app; cd app; echo one > f; tar -cf ../appended.tar f; echo second > f; tar -rf ../appended.tar f; "
                                         "echo third! > f; tar -rf ../appended.tar f"));
        QVERIFY2(made.exitCode == 0, made.err.constData());
        auto cat = test::runCli({QStringLiteral("cat"), path(QStringLiteral("appended.tar")) + QStringLiteral("!/f")});
        QCOMPARE(cat.exitCode, 0);
        QCOMPARE(cat.out, QByteArray("third!\n"));
        const QString target = path(QStringLiteral("ax"));
        auto extract = test::runCli({QStringLiteral("extract"), path(QStringLiteral("appended.tar")), QStringLiteral("-C"), target});
        QVERIFY2(extract.exitCode == 0, extract.err.constData());
        QFile f(target + QStringLiteral("/f"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("third!\n"));
        // One file is in place, of 7 bytes; the two earlier members were replaced, not refused.
        QVERIFY2(extract.out.startsWith("extracted 1 file, 0 directories, 0 links (7 bytes); 2 replaced"), extract.out.constData());
        // A second extraction meets a file that was there before: refused, nothing counted.
        auto again = test::runCli({QStringLiteral("extract"), path(QStringLiteral("appended.tar")), QStringLiteral("-C"), target});
        QCOMPARE(again.exitCode, 1);
        QVERIFY2(again.out.startsWith("extracted 0 files, 0 directories, 0 links (0 bytes); 3 refused"), again.out.constData());
        auto skip = test::runCli({QStringLiteral("extract"), QStringLiteral("--skip-existing"), path(QStringLiteral("appended.tar")), QStringLiteral("-C"), target});
        QCOMPARE(skip.exitCode, 0);
        QVERIFY2(skip.out.contains("3 skipped"), skip.out.constData());
        auto both = test::runCli({QStringLiteral("extract"), QStringLiteral("--keep-both"), path(QStringLiteral("appended.tar")), QStringLiteral("-C"), target});
        QCOMPARE(both.exitCode, 0);
        QFile kept(target + QStringLiteral("/f (2)"));
        QVERIFY2(kept.open(QIODevice::ReadOnly), both.out.constData());
        QCOMPARE(kept.readAll(), QByteArray("third!\n"));
        auto overwrite = test::runCli({QStringLiteral("extract"), QStringLiteral("--overwrite"), path(QStringLiteral("appended.tar")), QStringLiteral("-C"), target});
        QCOMPARE(overwrite.exitCode, 0);
        QVERIFY2(overwrite.out.startsWith("extracted 1 file,"), overwrite.out.constData());
        auto conflicting = test::runCli({QStringLiteral("extract"), QStringLiteral("--overwrite"), QStringLiteral("--keep-both"), path(QStringLiteral("appended.tar")),
                                         QStringLiteral("-C"), target});
        QCOMPARE(conflicting.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestRealWorldArchives)
#include "tst_real_world_archives.moc"
