// SPDX-License-Identifier: MIT
// Every archive format, made at test time by the real tools from a tree the test builds:
// `ls --json` matches the tree field by field and `cat` of every file matches its bytes. Plus a
// nested chain (tar inside zip inside iso) read through one SPEC, `info`, and truncated inputs.

#include "archive_tree.h"
#include "formats/archive/ascii_mbrtowc.h"
#include "sandbox/process_setup.h"
#include "test_files.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <clocale>
#include <cstring>
#include <cwchar>
#include <dlfcn.h>

using namespace asc;

namespace {

enum Capability {
    Dirs = 1,
    Symlinks = 2,
    Modes = 4,
    NegativeMtime = 8,
    Owners = 16,
    Mtimes = 32,
    Hardlinks = 64,
    All = Dirs | Symlinks | Modes | NegativeMtime | Owners | Mtimes | Hardlinks,
};

struct Maker {
    const char *name;
    const char *file;
    const char *command; // sh -c with $1 = tree root, $2 = output file
    int caps;
    const char *tool;
};

const Maker kMakers[] = {
    {"tar (pax)", "t.tar", "cd \"$1\" && bsdtar --format pax -cf \"$2\" tree", All, "bsdtar"},
    {"tar (GNU)", "t-gnu.tar", "cd \"$1\" && tar --format=gnu -cf \"$2\" tree", All, "tar"},
    {"tar.gz", "t.tar.gz", "cd \"$1\" && bsdtar --format pax -czf \"$2\" tree", All, "bsdtar"},
    {"tar.bz2", "t.tar.bz2", "cd \"$1\" && bsdtar --format pax -cjf \"$2\" tree", All, "bsdtar"},
    {"tar.xz", "t.tar.xz", "cd \"$1\" && bsdtar --format pax -cJf \"$2\" tree", All, "bsdtar"},
    {"tar.zst", "t.tar.zst", "cd \"$1\" && bsdtar --format pax --zstd -cf \"$2\" tree", All, "bsdtar"},
    {"tar.lz4", "t.tar.lz4", "cd \"$1\" && bsdtar --format pax --lz4 -cf \"$2\" tree", All, "bsdtar"},
    {"tar.lz", "t.tar.lz", "cd \"$1\" && bsdtar --format pax --lzip -cf \"$2\" tree", All, "bsdtar"},
    {"zip", "t.zip", "cd \"$1\" && bsdtar --format zip -cf \"$2\" tree", Dirs | Symlinks | Modes | Mtimes, "bsdtar"},
    {"zip64", "t64.zip", "cd \"$1\" && python3 -c 'import os,sys,zipfile\n"
                         "z=zipfile.ZipFile(sys.argv[1],\"w\",zipfile.ZIP_DEFLATED)\n"
                         "for d,ds,fs in os.walk(\"tree\"):\n"
                         " ds.sort()\n"
                         " for f in sorted(fs):\n"
                         "  p=os.path.join(d,f)\n"
                         "  if os.path.islink(p): continue\n"
                         "  with z.open(p,\"w\",force_zip64=True) as o: o.write(open(p,\"rb\").read())\n"
                         "z.close()' \"$2\"",
     0, "python3"},
    // libarchive's 7z reader clamps times before 1970 to the epoch: NegativeMtime is not claimed.
    {"7z", "t.7z", "cd \"$1\" && 7zz a -bd -snl -snh \"$2\" tree >/dev/null", Dirs | Symlinks | Modes | Mtimes, "7zz"},
    {"iso9660 (Rock Ridge, Joliet)", "t.iso", "xorriso -as mkisofs -quiet -R -J -o \"$2\" \"$1\"", All, "xorriso"},
    {"cpio (newc)", "t.cpio", "cd \"$1\" && find tree | cpio --quiet -o -H newc > \"$2\"", Dirs | Symlinks | Modes | Owners | Mtimes | Hardlinks, "cpio"},
};

} // namespace

class TestArchiveFormats : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    test::ArchiveTree tree_;
    QString out_;

    static QList<QJsonObject> lsJson(const QString &spec, QByteArray *err = nullptr)
    {
        auto r = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), spec});
        if (err)
            *err = r.err;
        QList<QJsonObject> entries;
        if (r.exitCode != 0)
            return entries;
        for (const QByteArray &line : r.out.split('\n')) {
            if (line.isEmpty())
                continue;
            QJsonParseError error;
            auto doc = QJsonDocument::fromJson(line, &error);
            if (error.error != QJsonParseError::NoError)
                qFatal("bad JSON line: %s", line.constData());
            entries << doc.object();
        }
        return entries;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        QDir().mkpath(dir_.filePath(QStringLiteral("root")));
        QDir().mkpath(dir_.filePath(QStringLiteral("out")));
        tree_ = test::makeArchiveTree(dir_.filePath(QStringLiteral("root")));
        out_ = dir_.filePath(QStringLiteral("out"));
    }

    void listAndRead_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(std::size(kMakers)); ++i)
            QTest::newRow(kMakers[i].name) << i;
    }

    void listAndRead()
    {
        QFETCH(int, index);
        const Maker &maker = kMakers[index];
        ASC_REQUIRE_TOOL(QString::fromLatin1(maker.tool));
        const QString archive = out_ + QLatin1Char('/') + QLatin1String(maker.file);
        auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QString::fromUtf8(maker.command), QStringLiteral("sh"), tree_.root, archive});
        QVERIFY2(made.exitCode == 0, made.err.constData());

        QByteArray err;
        const QList<QJsonObject> entries = lsJson(archive, &err);
        QVERIFY2(!entries.isEmpty(), err.constData());
        QMap<QByteArray, QJsonObject> byPath;
        for (const QJsonObject &e : entries) {
            const QByteArray path = e[QStringLiteral("path")].toString().toUtf8();
            QVERIFY2(!path.startsWith('/') && !path.startsWith("./") && !path.endsWith('/'), path.constData());
            byPath.insert(path, e);
        }

        for (auto it = tree_.items.cbegin(); it != tree_.items.cend(); ++it) {
            const QByteArray &path = it.key();
            const test::TreeItem &item = it.value();
            const bool isDir = item.type == QLatin1String("dir");
            const bool isLink = item.type == QLatin1String("symlink");
            // hello.txt and hardlink-to-hello share an inode: whichever the tool meets first is
            // the file, the other the hardlink (or, in formats without hardlinks, a copy).
            const bool isHardlink = item.type == QLatin1String("hardlink") || path == "tree/hello.txt";
            if (isDir && (!(maker.caps & Dirs) || path == "tree"))
                continue; // ISO images and some zips do not list the top folder itself
            if (isLink && !(maker.caps & Symlinks))
                continue;
            QVERIFY2(byPath.contains(path), path.constData());
            const QJsonObject e = byPath.value(path);
            const QString type = e[QStringLiteral("type")].toString();
            if (isHardlink) {
                // Formats keep hardlinks as links (tar, cpio) or as a second copy (zip, 7z, iso).
                QVERIFY2(type == QLatin1String("hardlink") || type == QLatin1String("file"), path.constData());
                if (type == QLatin1String("hardlink"))
                    QVERIFY(QByteArray("tree/hello.txt tree/hardlink-to-hello").contains(e[QStringLiteral("target")].toString().toUtf8()));
            } else {
                QCOMPARE(type, item.type);
            }
            // (cpio puts a hardlink group's data on its last member, so the first shows size 0;
            // cat below proves both names read the right bytes.)
            if (type == QLatin1String("file") && !isHardlink)
                QCOMPARE(e[QStringLiteral("size")].toInteger(), qint64(item.content.size()));
            if (isLink)
                QCOMPARE(e[QStringLiteral("target")].toString().toUtf8(), item.target);
            if ((maker.caps & Modes) && !isLink && !isHardlink)
                QCOMPARE(e[QStringLiteral("mode")].toInt(), item.mode);
            const bool mtimeKept = (maker.caps & Mtimes) && (item.mtime >= 0 || (maker.caps & NegativeMtime));
            if (mtimeKept && !isLink && !isHardlink && !(isDir && path == "tree"))
                QCOMPARE(e[QStringLiteral("mtime")].toInteger(), item.mtime);
            if (maker.caps & Owners) {
                QCOMPARE(e[QStringLiteral("uid")].toInt(), int(::getuid()));
                QCOMPARE(e[QStringLiteral("gid")].toInt(), int(::getgid()));
            }
        }

        // cat of every file (and hardlink) is byte-exact.
        for (auto it = tree_.items.cbegin(); it != tree_.items.cend(); ++it) {
            if (it->type != QLatin1String("file") && it->type != QLatin1String("hardlink"))
                continue;
            auto r = test::runCli({QStringLiteral("cat"), archive + QStringLiteral("!/") + QString::fromUtf8(it.key())});
            QVERIFY2(r.exitCode == 0, (it.key() + ": " + r.err).constData());
            QVERIFY2(r.out == it->content, it.key().constData());
        }

        auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), archive});
        QCOMPARE(info.exitCode, 0);
        QVERIFY(QJsonDocument::fromJson(info.out).object().contains(QStringLiteral("format")));
    }

    void arArchive()
    {
        const QString archive = out_ + QStringLiteral("/t.a");
        const QString files = tree_.root + QStringLiteral("/tree");
        auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"),
                                                          QStringLiteral("cd \"$1\" && ar rcU \"$2\" hello.txt empty.txt old-1969.txt data/random-5m.bin"), QStringLiteral("sh"), files, archive});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const QList<QJsonObject> entries = lsJson(archive);
        QStringList names;
        for (const auto &e : entries)
            names << e[QStringLiteral("path")].toString();
        QCOMPARE(names, QStringList({QStringLiteral("hello.txt"), QStringLiteral("empty.txt"), QStringLiteral("old-1969.txt"), QStringLiteral("random-5m.bin")}));
        QCOMPARE(entries[0][QStringLiteral("mtime")].toInteger(), 1700000000);
        QCOMPARE(entries[0][QStringLiteral("mode")].toInt(), 0644);
        QCOMPARE(entries[3][QStringLiteral("size")].toInteger(), 5 * 1024 * 1024);
        auto r = test::runCli({QStringLiteral("cat"), archive + QStringLiteral("!/random-5m.bin")});
        QVERIFY(r.out == tree_.items.value("tree/data/random-5m.bin").content);
    }

    // Files are renamed into place in batches after one sync: more files than a batch, a
    // hardlink to an early file and a symlink between them all land, and no temporary is left.
    void extractionInBatches()
    {
        const QString stage = out_ + QStringLiteral("/batches");
        auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("set -e; mkdir -p \"$1/t/d\" && cd \"$1/t\" && for i in $(seq 1 300); do echo \"file $i\" > d/f$i; done && "
                                                                                               "ln d/f1 hard1 && ln -s d/f2 soft2 && for i in $(seq 301 340); do echo \"file $i\" > d/f$i; done && "
                                                                                               "tar -cf ../t.tar d/f1 d/f2 $(seq -f 'd/f%g' 3 300) hard1 soft2 $(seq -f 'd/f%g' 301 340)"),
                                                          QStringLiteral("sh"), stage});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const QString target = stage + QStringLiteral("/out");
        auto r = test::runCli({QStringLiteral("extract"), stage + QStringLiteral("/t.tar"), QStringLiteral("-C"), target});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        for (int i : {1, 2, 128, 129, 300, 301, 340})
            QCOMPARE(test::sha256File(target + QStringLiteral("/d/f%1").arg(i)), test::sha256(QByteArray("file ") + QByteArray::number(i) + "\n"));
        QCOMPARE(test::sha256File(target + QStringLiteral("/hard1")), test::sha256("file 1\n"));
        QCOMPARE(QFileInfo(target + QStringLiteral("/soft2")).symLinkTarget(), target + QStringLiteral("/d/f2"));
        QCOMPARE(QDir(target + QStringLiteral("/d")).entryList(QDir::Files | QDir::Hidden).size(), 340);
        QDirIterator temps(target, {QStringLiteral(".archivescope-tmp-*")}, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        QVERIFY(!temps.hasNext());
        // Run again: every file is refused as existing (their renames see the names), none replaced.
        auto again = test::runCli({QStringLiteral("extract"), stage + QStringLiteral("/t.tar"), QStringLiteral("-C"), target});
        QCOMPARE(again.exitCode, 1);
        QCOMPARE(again.err.count("refused: exists"), 342);
    }

    void singleCompressedFile()
    {
        const QByteArray bytes = test::seededBytes(300000, 12);
        const QString raw = test::writeFile(dir_, QStringLiteral("disk.img"), bytes);
        for (const char *tool : {"xz", "gzip", "zstd", "bzip2"}) {
            auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("%1 -kc \"$1\" > \"$1.c\"").arg(QLatin1String(tool)), QStringLiteral("sh"), raw});
            QCOMPARE(made.exitCode, 0);
            const QList<QJsonObject> entries = lsJson(raw + QStringLiteral(".c"));
            QCOMPARE(entries.size(), 1);
            const QString name = entries[0][QStringLiteral("path")].toString();
            auto r = test::runCli({QStringLiteral("cat"), raw + QStringLiteral(".c!/") + name});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY2(r.out == bytes, tool);
        }
    }

    // Encrypted entries are listed and marked; reading them is a clear error; the rest extracts.
    void encryptedEntries()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("7zz"));
        const QString stage = dir_.filePath(QStringLiteral("enc"));
        QDir().mkpath(stage);
        auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"),
                                                          QStringLiteral("cd \"$1\" && echo open > open.txt && echo secret > secret.txt && 7zz a -bd -tzip both.zip open.txt >/dev/null && "
                                                                         "7zz a -bd -tzip -pfixture both.zip secret.txt >/dev/null"),
                                                          QStringLiteral("sh"), stage});
        QCOMPARE(made.exitCode, 0);
        const QString zip = stage + QStringLiteral("/both.zip");
        const QList<QJsonObject> entries = lsJson(zip);
        QCOMPARE(entries.size(), 2);
        QCOMPARE(entries[0][QStringLiteral("encrypted")].toBool(), false);
        QCOMPARE(entries[1][QStringLiteral("encrypted")].toBool(), true);
        auto secret = test::runCli({QStringLiteral("cat"), zip + QStringLiteral("!/secret.txt")});
        QCOMPARE(secret.exitCode, 1);
        QVERIFY2(secret.err.contains("secret.txt") && secret.err.contains("encrypted"), secret.err.constData());
        auto extracted = test::runCli({QStringLiteral("extract"), zip, QStringLiteral("-C"), stage + QStringLiteral("/out")});
        QCOMPARE(extracted.exitCode, 1);
        QVERIFY(extracted.err.contains("secret.txt: refused: entry is encrypted"));
        QCOMPARE(test::sha256File(stage + QStringLiteral("/out/open.txt")), test::sha256("open\n"));
    }

    // A zip member's compressed size is its central directory's, as zipinfo reads it: deflated
    // and stored, zip64 records, encrypted (its header counted), a stub before the zip, a name
    // written twice, and a name in CP437.
    void zipCompressedSizesAreZipinfos_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("deflated and stored") << QStringLiteral("zip -q -r t.zip d && zip -q -0 t.zip plain.txt");
        QTest::newRow("zip64") << QStringLiteral("zip -q -r -fz t.zip d plain.txt");
        QTest::newRow("encrypted") << QStringLiteral("7zz a -bd -tzip -pfixture t.zip d plain.txt >/dev/null");
        QTest::newRow("stub before") << QStringLiteral("zip -q -r z.zip d plain.txt && head -c 3000 /dev/urandom > t.zip && cat z.zip >> t.zip");
        QTest::newRow("name twice") << QStringLiteral("zip -q -r t.zip d plain.txt && cp d/a.txt plain.txt && printf x >> plain.txt && "
                                                      "python3 -c 'import zipfile,warnings; warnings.simplefilter(\"ignore\"); "
                                                      "z=zipfile.ZipFile(\"t.zip\",\"a\",zipfile.ZIP_DEFLATED); z.write(\"plain.txt\"); z.close()'");
        QTest::newRow("cp437 name") << QStringLiteral("zip -q -r t.zip d && python3 -c 'import zipfile; z=zipfile.ZipFile(\"t.zip\",\"a\",zipfile.ZIP_DEFLATED); "
                                                      "z.writestr(\"XtX.txt\", \"summer \"*500); z.close(); "
                                                      "b=open(\"t.zip\",\"rb\").read(); open(\"t.zip\",\"wb\").write(b.replace(b\"XtX.txt\", b\"\\x82t\\x82.txt\"))'");
    }

    void zipCompressedSizesAreZipinfos()
    {
        QFETCH(QString, command);
        ASC_REQUIRE_TOOL(QStringLiteral("zipinfo"));
        ASC_REQUIRE_TOOL(QStringLiteral("7zz"));
        const QString stage = dir_.filePath(QStringLiteral("packed-") + QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')));
        QDir().mkpath(stage);
        auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"),
                                                          QStringLiteral("cd \"$1\" && mkdir d && seq 1 30000 > d/a.txt && head -c 7000 /dev/urandom > d/b.bin && "
                                                                         "echo hi > d/c && seq 5 9 > plain.txt && ") +
                                                              command,
                                                          QStringLiteral("sh"), stage});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const QString zip = stage + QStringLiteral("/t.zip");
        // zipinfo -l: permissions, version, system, size, type, csize, method, date, time, name.
        auto info = test::run(QStringLiteral("zipinfo"), {QStringLiteral("-l"), zip});
        QList<std::pair<QByteArray, qint64>> expected;
        for (const QByteArray &line : info.out.split('\n')) {
            const QList<QByteArray> f = line.simplified().split(' ');
            if (f.size() < 10 || f[0].size() != 10 || f[0].startsWith('d')) // files only (a name in another charset shows '?')
                continue;
            expected.append({f.mid(9).join(' '), f[5].toLongLong()});
        }
        QVERIFY2(!expected.isEmpty(), info.out.constData());
        QByteArray err;
        QList<std::pair<QByteArray, qint64>> listed;
        for (const QJsonObject &e : lsJson(zip, &err)) {
            if (e[QStringLiteral("type")].toString() == QLatin1String("file"))
                listed.append({e[QStringLiteral("path")].toString().toUtf8(), e[QStringLiteral("compressed_size")].toInteger(-1)});
        }
        QVERIFY2(!listed.isEmpty(), err.constData());
        if (QByteArray(QTest::currentDataTag()) == "cp437 name") {
            // zipinfo prints the stored bytes; the listing decodes them from CP437.
            for (auto &[name, packed] : expected) {
                if (!name.startsWith("d/"))
                    name = QStringLiteral("\u00e9t\u00e9.txt").toUtf8();
            }
        }
        std::sort(expected.begin(), expected.end());
        std::sort(listed.begin(), listed.end());
        QCOMPARE(listed, expected);
    }

    // A 7z member's compressed size is what 7-Zip lists: a solid block's bytes on its first
    // file, none on the others, each file's own when not solid; headers compressed or not,
    // and a block of four packed streams (BCJ2).
    void sevenZipCompressedSizesAre7zzs_data()
    {
        QTest::addColumn<QString>("options");
        QTest::newRow("solid") << QString();
        QTest::newRow("not solid") << QStringLiteral("-ms=off");
        QTest::newRow("header stored") << QStringLiteral("-mhc=off");
        QTest::newRow("lzma2 blocks of 2 files") << QStringLiteral("-m0=lzma2 -ms=2f");
        QTest::newRow("bcj2") << QStringLiteral("-mf=BCJ2");
    }

    void sevenZipCompressedSizesAre7zzs()
    {
        QFETCH(QString, options);
        ASC_REQUIRE_TOOL(QStringLiteral("7zz"));
        const QString stage = dir_.filePath(QStringLiteral("packed7-") + QString::number(QTest::currentDataTag()[0]) + QString::number(qHash(QByteArray(QTest::currentDataTag()))));
        QDir().mkpath(stage);
        auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"),
                                                          QStringLiteral("cd \"$1\" && mkdir d && seq 1 30000 > d/a.txt && head -c 7000 /dev/urandom > d/b.bin && "
                                                                         "echo hi > d/c && : > d/empty && cp /bin/true d/true && 7zz a -bd $2 t.7z d >/dev/null"),
                                                          QStringLiteral("sh"), stage, options});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const QString archive = stage + QStringLiteral("/t.7z");
        auto slt = test::run(QStringLiteral("7zz"), {QStringLiteral("l"), QStringLiteral("-slt"), archive});
        QList<std::pair<QByteArray, qint64>> expected;
        QByteArray path;
        bool folder = false;
        for (const QByteArray &line : slt.out.split('\n')) {
            if (line.startsWith("Path = "))
                path = line.mid(7);
            else if (line.startsWith("Folder = "))
                folder = line.endsWith('+');
            else if (line.startsWith("Packed Size = ") && path.startsWith("d/") && !folder)
                expected.append({path, line.size() > 14 ? line.mid(14).toLongLong() : -1});
        }
        QVERIFY2(expected.size() == 5, slt.out.constData());
        QByteArray err;
        QList<std::pair<QByteArray, qint64>> listed;
        for (const QJsonObject &e : lsJson(archive, &err)) {
            if (e[QStringLiteral("type")].toString() == QLatin1String("file"))
                listed.append({e[QStringLiteral("path")].toString().toUtf8(), e[QStringLiteral("compressed_size")].toInteger(-1)});
        }
        QVERIFY2(!listed.isEmpty(), err.constData());
        std::sort(expected.begin(), expected.end());
        std::sort(listed.begin(), listed.end());
        QCOMPARE(listed, expected);
    }

    // tar inside zip inside iso, read through one SPEC.
    void nestedChain()
    {
        const QString stage = dir_.filePath(QStringLiteral("nest"));
        QDir().mkpath(stage + QStringLiteral("/iso"));
        auto made = test::run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"),
                                                          QStringLiteral("set -e; cd \"$1\" && bsdtar -cf \"$2/inner.tar\" tree && cd \"$2\" && bsdtar --format zip -cf iso/middle.zip inner.tar && "
                                                                         "xorriso -as mkisofs -quiet -R -J -o outer.iso iso"),
                                                          QStringLiteral("sh"), tree_.root, stage});
        QVERIFY2(made.exitCode == 0, made.err.constData());
        const QString spec = stage + QStringLiteral("/outer.iso!/middle.zip!/inner.tar!/tree/data/random-5m.bin");
        auto r = test::runCli({QStringLiteral("cat"), spec});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out == tree_.items.value("tree/data/random-5m.bin").content);
        const QList<QJsonObject> inner = lsJson(stage + QStringLiteral("/outer.iso!/middle.zip!/inner.tar!/tree/docs"));
        QVERIFY(!inner.isEmpty());
        bool foundLeaf = false;
        for (const auto &e : inner)
            foundLeaf = foundLeaf || e[QStringLiteral("path")].toString() == QLatin1String("deep/er/leaf.bin");
        QVERIFY(foundLeaf);
        auto missing = test::runCli({QStringLiteral("cat"), stage + QStringLiteral("/outer.iso!/middle.zip!/nope")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains("nope"));
    }

    // Truncated archives and random garbage: exit 0 or 1 with a message, never a crash or hang.
    void truncatedAndGarbage()
    {
        const QStringList archives = QDir(out_).entryList(QDir::Files);
        QVERIFY(!archives.isEmpty());
        for (const QString &name : archives) {
            QFile f(out_ + QLatin1Char('/') + name);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            for (double fraction : {0.01, 0.3, 0.77}) {
                const QString cut = test::writeFile(dir_, QStringLiteral("cut-") + name, bytes.left(qsizetype(bytes.size() * fraction)));
                for (const QString &command : {QStringLiteral("ls"), QStringLiteral("info")}) {
                    auto r = test::runCli({command, cut}, 30000);
                    QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(name + QStringLiteral(" ") + command));
                    if (r.exitCode == 1)
                        QVERIFY2(r.err.startsWith("archivescope-cli: ") && r.err.contains(cut.toUtf8()), r.err.constData());
                }
                auto c = test::runCli({QStringLiteral("cat"), cut + QStringLiteral("!/tree/data/random-5m.bin")}, 30000);
                QVERIFY2(c.exitCode == 0 || c.exitCode == 1, qPrintable(name));
            }
        }
        const QString garbage = test::writeFile(dir_, QStringLiteral("garbage.bin"), test::seededBytes(100000, 99));
        auto g = test::runCli({QStringLiteral("ls"), garbage});
        QCOMPARE(g.exitCode, 1);
        QVERIFY(g.err.contains("not a recognised archive"));
    }

    void namesDecodeAsGlibcDoes()
    {
        // libarchive's tar reader calls mbrtowc for every byte of every name; the program's own
        // (formats/archive/ascii_mbrtowc) takes those calls and must answer exactly as glibc's:
        // every byte alone, UTF-8 sequences whole, cut short and continued, invalid ones.
        QVERIFY(asciiMbrtowcInUse());
        useUtf8Locale();
        using Decode = size_t (*)(wchar_t *, const char *, size_t, mbstate_t *);
        const auto glibc = reinterpret_cast<Decode>(::dlsym(RTLD_NEXT, "mbrtowc"));
        QVERIFY(glibc && glibc != &::mbrtowc);
        auto same = [&](const QByteArray &bytes, size_t n, mbstate_t *ours, mbstate_t *theirs) {
            wchar_t a = 0, b = 0;
            const size_t ra = ::mbrtowc(&a, bytes.constData(), n, ours);
            const size_t rb = glibc(&b, bytes.constData(), n, theirs);
            return ra == rb && (ra >= size_t(-2) || a == b) && std::memcmp(ours, theirs, sizeof *ours) == 0;
        };
        for (int byte = 0; byte < 256; ++byte) {
            mbstate_t a{}, b{};
            QVERIFY2(same(QByteArray(1, char(byte)), 1, &a, &b), qPrintable(QString::number(byte)));
        }
        for (const QByteArray &text : {QByteArray("\xc3\xa9"), QByteArray("\xe2\x82\xac"), QByteArray("\xf0\x9f\x98\x80"), QByteArray("\xc3("), QByteArray("\xff")}) {
            mbstate_t a{}, b{};
            QVERIFY(same(text, size_t(text.size()), &a, &b));
            // Cut after the first byte, then an ASCII byte and the rest with the state carried.
            mbstate_t c{}, d{};
            QVERIFY(same(text, 1, &c, &d));
            QVERIFY(same(QByteArray("a"), 1, &c, &d));
            QVERIFY(same(text.mid(1), size_t(text.size() - 1), &c, &d));
        }
    }

    // files.tar in `dir`: 300 files of 200 KiB of random bytes (60 MB) under files/, made by
    // bsdtar; empty if bsdtar failed.
    static QString tarOfRandomFiles(const QTemporaryDir &dir)
    {
        for (int i = 0; i < 300; ++i)
            test::writeFile(dir, QStringLiteral("files/f%1.bin").arg(i), test::seededBytes(200 << 10, uint32_t(i)));
        const QString tar = dir.filePath(QStringLiteral("files.tar"));
        const auto made = test::run(QStringLiteral("bsdtar"), {QStringLiteral("-cf"), tar, QStringLiteral("-C"), dir.path(), QStringLiteral("files")});
        return made.exitCode == 0 ? tar : QString();
    }

    void listingATarSkipsFileData()
    {
        // 300 files of 200 KiB (60 MB) between their headers: listing reads the headers and
        // skips the data (GNU tar's way), it does not copy every file under the read size.
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        QTemporaryDir dir;
        const QString tar = tarOfRandomFiles(dir);
        QVERIFY(!tar.isEmpty());
        const qint64 size = QFileInfo(tar).size();
        for (const QStringList &mode : {QStringList{}, QStringList{QStringLiteral("--no-sandbox")}}) {
            const auto r = test::runCli(mode + QStringList{QStringLiteral("ls"), tar});
            QCOMPARE(r.exitCode, 0);
            QCOMPARE(r.out.count('\n'), 301);
            QVERIFY2(r.work.rchar >= 0 && r.work.rchar < size / 5, qPrintable(QStringLiteral("read %1 of %2 bytes").arg(r.work.rchar).arg(size)));
        }
        // And an entry found that way is read whole.
        const auto cat = test::runCli({QStringLiteral("--no-sandbox"), QStringLiteral("cat"), tar + QStringLiteral("!/files/f299.bin")});
        QCOMPARE(cat.exitCode, 0);
        QCOMPARE(cat.out.size(), 200 << 10);
    }

    void catOfAnEntryDecodesTheStreamOnce()
    {
        // In a tar.gz the lookup reads to the end (the last member of a name counts); the entry's
        // content is kept on the way, so cat does not decode the stream a second time. The last
        // entry of 300 random 200 KiB files: once is the file's size, twice would be double.
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        ASC_REQUIRE_TOOL(QStringLiteral("gzip"));
        QTemporaryDir dir;
        const QString tar = tarOfRandomFiles(dir);
        QVERIFY(!tar.isEmpty());
        const QByteArray last = test::run(QStringLiteral("bsdtar"), {QStringLiteral("-tf"), tar}).out.trimmed().split('\n').last();
        const QByteArray content = test::run(QStringLiteral("bsdtar"), {QStringLiteral("-xOf"), tar, QString::fromUtf8(last)}).out;
        QCOMPARE(content.size(), 200 << 10);
        QCOMPARE(test::run(QStringLiteral("gzip"), {QStringLiteral("-1"), tar}).exitCode, 0);
        const QString gz = tar + QStringLiteral(".gz");
        const qint64 size = QFileInfo(gz).size();
        for (const QStringList &mode : {QStringList{}, QStringList{QStringLiteral("--no-sandbox")}}) {
            const auto cat = test::runCli(mode + QStringList{QStringLiteral("cat"), gz + QStringLiteral("!/") + QString::fromUtf8(last)});
            QCOMPARE(cat.exitCode, 0);
            QVERIFY(cat.out == content);
            QVERIFY2(cat.work.rchar >= size && cat.work.rchar < size + size / 4,
                     qPrintable(QStringLiteral("read %1 of %2 bytes").arg(cat.work.rchar).arg(size)));
        }
        // Members of one name appended (tar -r), then compressed: still the last one.
        QTemporaryDir app;
        const QString appended = app.filePath(QStringLiteral("appended.tar"));
        for (const char *text : {"one\n", "second\n", "third!\n"}) {
            test::writeFile(app, QStringLiteral("f"), QByteArray(text));
            QCOMPARE(test::run(QStringLiteral("bsdtar"), {QFile::exists(appended) ? QStringLiteral("-rf") : QStringLiteral("-cf"), appended, QStringLiteral("-C"), app.path(), QStringLiteral("f")}).exitCode, 0);
        }
        QCOMPARE(test::run(QStringLiteral("gzip"), {appended}).exitCode, 0);
        const auto cat = test::runCli({QStringLiteral("cat"), appended + QStringLiteral(".gz!/f")});
        QCOMPARE(cat.exitCode, 0);
        QCOMPARE(cat.out, QByteArray("third!\n"));
    }
};

QTEST_GUILESS_MAIN(TestArchiveFormats)
#include "tst_archive_formats.moc"
