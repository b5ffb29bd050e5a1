// SPDX-License-Identifier: MIT
// Hostile archives built in the test: "../" entries, absolute paths, a symlink then a file
// through it, hardlinks pointing outside, setuid bits, a 1 GiB zero-filled zip entry. Nothing is
// written outside DIR, each refusal is reported, the rest is extracted.

#include "test_files.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <sys/stat.h>

using namespace asc;

class TestHostileArchives : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    // Every path under the sandbox except the extraction target, with sizes: must not change.
    QStringList outsideSnapshot(const QString &sandbox, const QString &target)
    {
        QStringList all;
        QDirIterator it(sandbox, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            if (path.startsWith(target))
                continue;
            all << path + QLatin1Char(' ') + QString::number(QFileInfo(path).size());
        }
        all.sort();
        return all;
    }

    // How many different bytes of `file` a trace's records cover.
    static qint64 distinctBytesRead(const QString &trace, const QString &file)
    {
        QFile f(trace);
        if (!f.open(QIODevice::ReadOnly))
            return -1;
        std::vector<std::pair<qint64, qint64>> spans;
        for (const QByteArray &line : f.readAll().split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.value(QStringLiteral("file")).toString() == file) {
                const qint64 at = qint64(o.value(QStringLiteral("offset")).toDouble());
                spans.emplace_back(at, at + qint64(o.value(QStringLiteral("length")).toDouble()));
            }
        }
        std::sort(spans.begin(), spans.end());
        qint64 total = 0, reached = 0;
        for (const auto &[from, to] : spans) {
            total += std::max<qint64>(0, to - std::max(from, reached));
            reached = std::max(reached, to);
        }
        return total;
    }

    QString python(const QString &script, const QString &output)
    {
        auto r = test::run(QStringLiteral("python3"), {QStringLiteral("-c"), script, output}, 300000);
        if (r.exitCode != 0)
            qFatal("python failed: %s", r.err.constData());
        return output;
    }

private Q_SLOTS:
    void traversalIsRefused()
    {
        const QString sandbox = dir_.filePath(QStringLiteral("sandbox"));
        const QString target = sandbox + QStringLiteral("/target");
        QDir().mkpath(target);
        test::writeFile(dir_, QStringLiteral("sandbox/outside.txt"), "precious\n");
        const QString archive = python(QStringLiteral(R"PY(
import io, sys, tarfile
def add(t, name, data=b"x", **kw):
    info = tarfile.TarInfo(name)
    for k, v in kw.items(): setattr(info, k, v)
    if info.type == tarfile.REGTYPE:
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    else:
        t.addfile(info)
with tarfile.open(sys.argv[1], "w", format=tarfile.PAX_FORMAT) as t:
    add(t, "good.txt", b"good\n")
    add(t, "../evil.txt", b"evil\n")
    add(t, "sub/../../evil2.txt", b"evil\n")
    add(t, "/abs-evil.txt", b"evil\n")
    add(t, "link", type=tarfile.SYMTYPE, linkname="..")
    add(t, "link/through-link.txt", b"evil\n")
    add(t, "abslink", type=tarfile.SYMTYPE, linkname="/tmp")
    add(t, "abslink/evil3.txt", b"evil\n")
    add(t, "hl-out", type=tarfile.LNKTYPE, linkname="../outside.txt")
    add(t, "hl-abs", type=tarfile.LNKTYPE, linkname="/etc/passwd")
    add(t, "hl-good", type=tarfile.LNKTYPE, linkname="good.txt")
    add(t, "suid", b"#!/bin/sh\n", mode=0o4755)
    add(t, "sgid-dir", type=tarfile.DIRTYPE, mode=0o2775)
    add(t, "fifo", type=tarfile.FIFOTYPE)
    add(t, "after.txt", b"still extracted\n")
)PY"),
                                       dir_.filePath(QStringLiteral("hostile.tar")));

        const QStringList before = outsideSnapshot(sandbox, target);
        const QStringList tmpBefore = QDir(QStringLiteral("/tmp")).entryList({QStringLiteral("evil3.txt")});
        auto r = test::runCli({QStringLiteral("extract"), archive, QStringLiteral("-C"), target});
        QCOMPARE(r.exitCode, 1); // something was refused
        QCOMPARE(outsideSnapshot(sandbox, target), before);
        QVERIFY(!QFile::exists(QStringLiteral("/tmp/evil3.txt")) || !tmpBefore.isEmpty());
        QVERIFY(!QFile::exists(QStringLiteral("/abs-evil.txt")));

        // Each refusal is reported on its own line.
        for (const char *name : {"../evil.txt", "sub/../../evil2.txt", "link/through-link.txt", "abslink/evil3.txt", "hl-out", "hl-abs", "fifo"})
            QVERIFY2(r.err.contains(QByteArray("!/") + name + ": refused") || r.err.contains(QByteArray(name) + ": refused"), name);
        // The rest is extracted.
        QCOMPARE(test::sha256File(target + QStringLiteral("/good.txt")), test::sha256("good\n"));
        QCOMPARE(test::sha256File(target + QStringLiteral("/after.txt")), test::sha256("still extracted\n"));
        // An absolute name lands below the target, as bsdtar and GNU tar put it.
        QCOMPARE(test::sha256File(target + QStringLiteral("/abs-evil.txt")), test::sha256("evil\n"));
        QCOMPARE(test::sha256File(target + QStringLiteral("/hl-good")), test::sha256("good\n"));
        QVERIFY(QFileInfo(target + QStringLiteral("/link")).isSymLink());
        struct stat st {};
        QCOMPARE(::stat((target + QStringLiteral("/suid")).toLocal8Bit().constData(), &st), 0);
        QCOMPARE(int(st.st_mode & 07777), 0755); // setuid dropped
        QCOMPARE(::stat((target + QStringLiteral("/sgid-dir")).toLocal8Bit().constData(), &st), 0);
        QCOMPARE(int(st.st_mode & 07000), 0);
        // No temporary files are left behind.
        QDirIterator it(target, {QStringLiteral(".archivescope-tmp-*")}, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        QVERIFY(!it.hasNext());

        // A second run refuses to overwrite; with --overwrite a file replaces a symlink without
        // following it.
        auto again = test::runCli({QStringLiteral("extract"), archive, QStringLiteral("-C"), target});
        QVERIFY(again.err.contains("good.txt: refused: exists"));
        QCOMPARE(outsideSnapshot(sandbox, target), before);
    }

    void fileOverSymlinkDoesNotFollow()
    {
        const QString sandbox = dir_.filePath(QStringLiteral("sandbox2"));
        const QString target = sandbox + QStringLiteral("/target");
        QDir().mkpath(target);
        test::writeFile(dir_, QStringLiteral("sandbox2/outside.txt"), "precious\n");
        const QString archive = python(QStringLiteral(R"PY(
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w") as t:
    i = tarfile.TarInfo("esc"); i.type = tarfile.SYMTYPE; i.linkname = "../outside.txt"; t.addfile(i)
    i = tarfile.TarInfo("esc"); i.size = 5; t.addfile(i, io.BytesIO(b"evil\n"))
)PY"),
                                       dir_.filePath(QStringLiteral("over-symlink.tar")));
        const QStringList before = outsideSnapshot(sandbox, target);
        auto r = test::runCli({QStringLiteral("extract"), QStringLiteral("--overwrite"), archive, QStringLiteral("-C"), target});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(outsideSnapshot(sandbox, target), before);
        QCOMPARE(test::sha256File(sandbox + QStringLiteral("/outside.txt")), test::sha256("precious\n"));
        QCOMPARE(test::sha256File(target + QStringLiteral("/esc")), test::sha256("evil\n"));
        QVERIFY(!QFileInfo(target + QStringLiteral("/esc")).isSymLink());
    }

    void zipBombHitsTheLimit()
    {
        const QString archive = python(QStringLiteral(R"PY(
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED, compresslevel=9)
with z.open("small.txt", "w") as o: o.write(b"small\n")
with z.open("zeros.bin", "w", force_zip64=True) as o:
    block = bytes(1 << 20)
    for _ in range(1024): o.write(block)
z.close()
)PY"),
                                       dir_.filePath(QStringLiteral("bomb.zip")));
        QVERIFY(QFileInfo(archive).size() < 4 * 1024 * 1024);

        // Listing reads the central directory and the local headers, not the 1 MiB of deflate:
        // the distinct bytes the I/O trace saw read of it.
        const QString trace = dir_.filePath(QStringLiteral("bomb-trace.jsonl"));
        auto ls = test::runCli({QStringLiteral("trace"), QStringLiteral("-o"), trace, QStringLiteral("--"), QStringLiteral("ls"), QStringLiteral("--json"), archive});
        QCOMPARE(ls.exitCode, 0);
        QVERIFY(ls.out.contains("\"size\":1073741824"));
        const qint64 distinct = distinctBytesRead(trace, archive);
        QVERIFY2(distinct > 0 && distinct < 256 * 1024, qPrintable(QStringLiteral("listing a zip must not decompress its entries: %1 bytes of it read").arg(distinct)));

        const QString target = dir_.filePath(QStringLiteral("bomb-out"));
        auto r = test::runCli({QStringLiteral("extract"), archive, QStringLiteral("-C"), target});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("--max-ratio"), r.err.constData());
        QVERIFY(QFile::exists(target + QStringLiteral("/small.txt")));
        QVERIFY(!QFile::exists(target + QStringLiteral("/zeros.bin")));
        QDirIterator it(target, {QStringLiteral(".archivescope-tmp-*")}, QDir::Files | QDir::Hidden);
        QVERIFY(!it.hasNext());

        auto capped = test::runCli({QStringLiteral("extract"), QStringLiteral("--overwrite"), QStringLiteral("--max-ratio"), QStringLiteral("0"),
                                    QStringLiteral("--max-bytes"), QStringLiteral("100M"), archive, QStringLiteral("-C"), target});
        QCOMPARE(capped.exitCode, 1);
        QVERIFY2(capped.err.contains("--max-bytes"), capped.err.constData());
    }

    void unusableTargetDirectory()
    {
        const QString archive = python(QStringLiteral("import sys,tarfile\ntarfile.open(sys.argv[1],'w').close()"), dir_.filePath(QStringLiteral("empty.tar")));
        const QString file = test::writeFile(dir_, QStringLiteral("not-a-dir"), "x");
        auto r = test::runCli({QStringLiteral("extract"), archive, QStringLiteral("-C"), file});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("not-a-dir"));
        QCOMPARE(test::runCli({QStringLiteral("extract"), archive}).exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestHostileArchives)
#include "tst_hostile_archives.moc"
