// SPDX-License-Identifier: MIT
// The archive index (formats/archive/index_cache) as a user meets it, counted with the I/O trace:
// the first listing of a compressed tarball (made by gzip, pigz, xz, zstd, pzstd, bzip2, lbzip2,
// lz4; and a gzip-compressed cpio and ar) reads it whole and keeps an index; the second reads almost nothing of it and lists the
// same; cat of the last member reads from the restart point before it (a gzip seek point, an xz
// or bzip2 block, a zstd or lz4 frame), not the archive, and gives tar's bytes; an
// archive that changed, a damaged index and --no-index all read the archive again; index --json
// and --drop say what there is.

#include "fixtures.h"
#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <map>

using namespace asc;

class TestArchiveIndex : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QTemporaryDir cache_;
    QString tree_;
    QStringList members_;

    // Bytes of `file` the traced command read, from the trace's records (each byte once when
    // `distinct`: what came from the disk, not what a probe looked at again in the page cache).
    static qint64 bytesRead(const QString &trace, const QString &file, bool distinct = false)
    {
        QFile f(trace);
        if (!f.open(QIODevice::ReadOnly))
            return -1;
        qint64 total = 0;
        std::map<qint64, qint64> ranges; // start -> end
        for (const QByteArray &line : f.readAll().split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.value(QStringLiteral("file")).toString() != file)
                continue;
            const qint64 at = qint64(o.value(QStringLiteral("offset")).toDouble()), length = qint64(o.value(QStringLiteral("length")).toDouble());
            total += length;
            qint64 &end = ranges[at];
            end = std::max(end, at + length);
        }
        if (!distinct)
            return total;
        qint64 covered = 0, reached = 0;
        for (const auto &[start, end] : ranges) {
            covered += std::max<qint64>(0, end - std::max(start, reached));
            reached = std::max(reached, end);
        }
        return covered;
    }

    // `args` under the trace: its stdout, and the bytes of `file` it read.
    std::pair<QByteArray, qint64> traced(const QStringList &args, const QString &file, QByteArray *err = nullptr)
    {
        const QString trace = dir_.filePath(QStringLiteral("trace.jsonl"));
        QFile::remove(trace);
        const auto r = test::runCli(QStringList{QStringLiteral("trace"), QStringLiteral("-o"), trace, QStringLiteral("--")} + args);
        if (err)
            *err = r.err;
        if (r.exitCode != 0)
            qWarning() << args << r.err;
        return {r.exitCode == 0 ? r.out : QByteArray("failed"), bytesRead(trace, file)};
    }

    int indexFiles() const { return int(QDir(cache_.path()).entryList({QStringLiteral("*.idx")}, QDir::Files).size()); }

    QJsonObject indexFacts(const QString &archive)
    {
        const auto r = test::runCli({QStringLiteral("index"), archive, QStringLiteral("--json")});
        return QJsonDocument::fromJson(r.out).object();
    }

private Q_SLOTS:
    void initTestCase()
    {
        for (const char *tool : {"gzip", "pigz", "xz", "zstd", "pzstd", "bzip2", "lbzip2", "lz4", "bsdtar"})
            ASC_REQUIRE_TOOL(QString::fromLatin1(tool));
        qputenv("ARCHIVESCOPE_INDEX_DIR", cache_.path().toLocal8Bit());
        // 40 MiB of text in 160 files, then a member of random bytes last.
        tree_ = dir_.filePath(QStringLiteral("tree"));
        for (int i = 0; i < 160; ++i) {
            const QString name = QStringLiteral("docs/part%1/file%2.txt").arg(i / 40).arg(i, 3, 10, QLatin1Char('0'));
            test::writeFile(dir_, QStringLiteral("tree/") + name, test::seededWords(256 << 10, uint32_t(i + 1)));
            members_ << name;
        }
        test::writeFile(dir_, QStringLiteral("tree/zz-last.bin"), test::seededBytes(300000, 5));
        members_ << QStringLiteral("zz-last.bin");
        const QString tar = dir_.filePath(QStringLiteral("plain.tar"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), QStringList{QStringLiteral("-cf"), tar, QStringLiteral("-C"), tree_} + QStringList{QStringLiteral("docs"), QStringLiteral("zz-last.bin")}).exitCode, 0);
        for (const auto &[program, suffix] : std::initializer_list<std::pair<const char *, const char *>>{
                 {"gzip", "gz"}, {"pigz", "pigz.gz"}, {"xz -1 -T1", "xz"}, {"xz -1 -T2 --block-size=4MiB", "blocks.xz"}, {"zstd", "zst"}, {"pzstd -q -p 2", "pzstd.zst"}, {"bzip2", "bz2"}, {"lbzip2 -n 2", "lbzip2.bz2"}, {"lz4", "lz4"}}) {
            QStringList args = QString::fromLatin1(program).split(QLatin1Char(' '));
            const QString tool = args.takeFirst();
            // xz -1: a loaded CI machine took over two minutes for xz -6 of these 40 MiB.
            const auto r = test::run(tool, args + QStringList{QStringLiteral("-c"), tar}, 600000);
            QCOMPARE(r.exitCode, 0);
            QFile out(dir_.filePath(QStringLiteral("a.tar.%1").arg(QString::fromLatin1(suffix))));
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(r.out);
        }
        // cpio (newc) and ar members, gzip-compressed: the same files; ar keeps no folders, so
        // its members are the files by their own names.
        const QString cpio = dir_.filePath(QStringLiteral("plain.cpio")), ar = dir_.filePath(QStringLiteral("plain.ar"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), QStringList{QStringLiteral("--format"), QStringLiteral("newc"), QStringLiteral("-cf"), cpio,
                                                                 QStringLiteral("-C"), tree_, QStringLiteral("docs"), QStringLiteral("zz-last.bin")})
                     .exitCode,
                 0);
        QStringList files;
        for (const QString &m : std::as_const(members_))
            files << m;
        QCOMPARE(test::run(QStringLiteral("bsdtar"), QStringList{QStringLiteral("--format"), QStringLiteral("ar"), QStringLiteral("-cf"), ar,
                                                                 QStringLiteral("-C"), tree_} +
                                                         files)
                     .exitCode,
                 0);
        for (const QString &plain : {cpio, ar}) {
            const auto r = test::run(QStringLiteral("gzip"), {QStringLiteral("-c"), plain}, 600000);
            QCOMPARE(r.exitCode, 0);
            test::writeFile(dir_, QFileInfo(plain).fileName().replace(QLatin1String("plain."), QLatin1String("a.")) + QStringLiteral(".gz"), r.out);
        }
        // lz4 in 4 MiB parts joined: a frame each (lz4 itself writes one).
        QFile whole(tar);
        QVERIFY(whole.open(QIODevice::ReadOnly));
        QFile parts(dir_.filePath(QStringLiteral("a.tar.parts.lz4")));
        QVERIFY(parts.open(QIODevice::WriteOnly));
        for (int i = 0; !whole.atEnd(); ++i) {
            const QString part = test::writeFile(dir_, QStringLiteral("part%1").arg(i), whole.read(4 << 20));
            const auto r = test::run(QStringLiteral("lz4"), {QStringLiteral("-c"), part});
            QCOMPARE(r.exitCode, 0);
            parts.write(r.out);
        }
    }

    void init()
    {
        QDir(cache_.path()).removeRecursively();
        QDir().mkpath(cache_.path());
    }

    void secondListingReadsAlmostNothing_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<bool>("seekPoints");
        QTest::newRow("gzip") << QStringLiteral("gz") << true;
        QTest::newRow("pigz") << QStringLiteral("pigz.gz") << true;
        QTest::newRow("xz, one block") << QStringLiteral("xz") << false;
        QTest::newRow("xz -T2, 4 MiB blocks") << QStringLiteral("blocks.xz") << true;
        QTest::newRow("zstd, one frame") << QStringLiteral("zst") << false;
        QTest::newRow("pzstd, frames") << QStringLiteral("pzstd.zst") << true;
        QTest::newRow("bzip2") << QStringLiteral("bz2") << true;
        QTest::newRow("lbzip2") << QStringLiteral("lbzip2.bz2") << true;
        QTest::newRow("lz4, one frame") << QStringLiteral("lz4") << false;
        QTest::newRow("lz4 in parts") << QStringLiteral("parts.lz4") << true;
        QTest::newRow("cpio, gzip") << QStringLiteral("cpio.gz") << true;
        QTest::newRow("ar, gzip") << QStringLiteral("ar.gz") << true;
    }

    void secondListingReadsAlmostNothing()
    {
        QFETCH(QString, suffix);
        QFETCH(bool, seekPoints);
        const QString archive = dir_.filePath((suffix.contains(QLatin1String("cpio")) || suffix.startsWith(QLatin1String("ar")) ? QStringLiteral("a.")
                                                                                                                                : QStringLiteral("a.tar.")) +
                                              suffix);
        const bool flat = suffix.startsWith(QLatin1String("ar")); // members by their own names
        const auto listed = test::run(QStringLiteral("bsdtar"), {QStringLiteral("-tf"), archive});
        QCOMPARE(listed.exitCode, 0);
        const qint64 size = QFileInfo(archive).size();
        const auto [first, firstBytes] = traced({QStringLiteral("ls"), archive}, archive);
        QVERIFY(firstBytes >= size);
        QCOMPARE(indexFiles(), 1);
        const auto [second, secondBytes] = traced({QStringLiteral("ls"), archive}, archive);
        QCOMPARE(second, first);
        // The identity (64 KiB at each end) and the format's look at the start; not the archive.
        QVERIFY2(secondBytes <= 512 * 1024, qPrintable(QString::number(secondBytes)));
        const QJsonObject facts = indexFacts(archive);
        QCOMPARE(facts.value(QStringLiteral("built_now")).toBool(), false);
        QCOMPARE(facts.value(QStringLiteral("members")).toInt(), members_.size() + (flat ? 0 : 5)); // and the five folders
        QCOMPARE(facts.value(QStringLiteral("members")).toInt(), listed.out.count('\n'));
        QCOMPARE(facts.value(QStringLiteral("seek_points")).toInt() >= 4, seekPoints);
        // The index is small beside the archive.
        QVERIFY(facts.value(QStringLiteral("index_bytes")).toDouble() < 0.02 * double(size));
        // cat of the last member: tar's bytes; with seek points only the span before it is read.
        const auto expected = test::run(QStringLiteral("bsdtar"), {QStringLiteral("-xOf"), archive, QStringLiteral("zz-last.bin")});
        const auto [bytes, catBytes] = traced({QStringLiteral("cat"), archive + QStringLiteral("!/zz-last.bin")}, archive);
        QCOMPARE(bytes, expected.out);
        if (seekPoints) {
            const qint64 span = qint64(facts.value(QStringLiteral("largest_span_bytes")).toDouble());
            QVERIFY(span > 0);
            QVERIFY2(catBytes <= 2 * span + 2 * 1024 * 1024, qPrintable(QStringLiteral("%1 read, span %2").arg(catBytes).arg(span)));
            QVERIFY(catBytes < size / 2);
        }
        // A member in the middle too.
        const QString middle = members_[80];
        const auto mid = test::runCli({QStringLiteral("cat"), archive + QStringLiteral("!/") + (flat ? QFileInfo(middle).fileName() : middle)});
        QFile original(tree_ + QLatin1Char('/') + middle);
        QVERIFY(original.open(QIODevice::ReadOnly));
        QCOMPARE(mid.out, original.readAll());
        // extract of one member: looked up in the index and read alone, not found by walking
        // (decoding) the whole archive as before.
        if (seekPoints && !flat) {
            const QString into = dir_.filePath(QStringLiteral("one-") + suffix);
            QDir().mkpath(into);
            const auto [said, extractBytes] = traced({QStringLiteral("extract"), archive + QStringLiteral("!/zz-last.bin"), QStringLiteral("-C"), into}, archive);
            QVERIFY2(said.startsWith("extracted 1 file"), said.constData());
            QVERIFY2(extractBytes < size / 2, qPrintable(QStringLiteral("%1 of %2 read").arg(extractBytes).arg(size)));
            QFile written(into + QStringLiteral("/zz-last.bin"));
            QVERIFY(written.open(QIODevice::ReadOnly));
            QCOMPARE(written.readAll(), expected.out);
        }
    }

    void aTarballStoredInAnotherArchiveHasItsOwnIndex()
    {
        // A tar.gz kept as it is inside an uncompressed tar and an ar (as a .deb keeps its
        // data.tar.xz): its bytes are a part of the outer file, and its index is keyed by that
        // file and where it lies. It was not indexed: every open decoded it from its start.
        const QString inner = dir_.filePath(QStringLiteral("a.tar.gz"));
        test::writeFile(dir_, QStringLiteral("outer/before.txt"), "a member before it\n");
        QVERIFY(QFile::copy(inner, dir_.filePath(QStringLiteral("outer/a.tar.gz"))));
        const QString outerDir = dir_.filePath(QStringLiteral("outer"));
        QFile original(inner);
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QByteArray innerBytes = original.readAll();
        for (const char *format : {"ustar", "ar"}) {
            init();
            const QString outer = dir_.filePath(QStringLiteral("outer.") + QLatin1String(format));
            QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("--format"), QLatin1String(format), QStringLiteral("-cf"), outer, QStringLiteral("-C"),
                                                          outerDir, QStringLiteral("before.txt"), QStringLiteral("a.tar.gz")})
                         .exitCode,
                     0);
            const QString spec = outer + QStringLiteral("!/a.tar.gz");
            QCOMPARE(test::runCli({QStringLiteral("cat"), spec}).out, innerBytes); // the member as stored
            const auto [first, firstBytes] = traced({QStringLiteral("ls"), spec}, outer);
            QVERIFY(firstBytes >= innerBytes.size());
            QCOMPARE(indexFiles(), 1);
            const auto [second, secondBytes] = traced({QStringLiteral("ls"), spec}, outer);
            QCOMPARE(second, first);
            // The outer archive's and the member's probes look at the same first bytes again.
            const qint64 distinct = bytesRead(dir_.filePath(QStringLiteral("trace.jsonl")), outer, true);
            QVERIFY2(distinct <= 512 * 1024, qPrintable(QStringLiteral("%1: %2 bytes (%3 with re-reads)").arg(QLatin1String(format)).arg(distinct).arg(secondBytes)));
            const auto [last, catBytes] = traced({QStringLiteral("cat"), spec + QStringLiteral("!/zz-last.bin")}, outer);
            QFile lastFile(tree_ + QStringLiteral("/zz-last.bin"));
            QVERIFY(lastFile.open(QIODevice::ReadOnly));
            QCOMPARE(last, lastFile.readAll());
            QVERIFY2(catBytes < innerBytes.size() / 2, qPrintable(QString::number(catBytes)));
        }
    }

    void aChangedArchiveIsReadAgain()
    {
        const QString archive = dir_.filePath(QStringLiteral("changed.tar.gz"));
        QVERIFY(QFile::copy(dir_.filePath(QStringLiteral("a.tar.gz")), archive));
        traced({QStringLiteral("ls"), archive}, archive);
        QCOMPARE(indexFiles(), 1);
        // Same bytes, a new modification time: another identity, the archive is read again.
        QFile f(archive);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.setFileTime(QDateTime::currentDateTimeUtc().addSecs(60), QFileDevice::FileModificationTime));
        f.close();
        const auto [listing, bytes] = traced({QStringLiteral("ls"), archive}, archive);
        QVERIFY(bytes >= QFileInfo(archive).size());
        QCOMPARE(indexFiles(), 2); // the old one ages out
        QVERIFY(listing.contains("zz-last.bin"));
    }

    void aDamagedIndexIsANoticeAndAFullPass()
    {
        const QString archive = dir_.filePath(QStringLiteral("a.tar.gz"));
        const auto [first, firstBytes] = traced({QStringLiteral("ls"), archive}, archive);
        const QStringList files = QDir(cache_.path()).entryList({QStringLiteral("*.idx")}, QDir::Files);
        QCOMPARE(files.size(), 1);
        QFile index(cache_.filePath(files.first()));
        QVERIFY(index.open(QIODevice::ReadWrite));
        QByteArray bytes = index.readAll();
        bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x55);
        index.seek(0);
        index.write(bytes);
        index.close();
        QByteArray err;
        const auto [again, againBytes] = traced({QStringLiteral("ls"), archive}, archive, &err);
        QCOMPARE(again, first);
        QVERIFY(againBytes >= firstBytes);
        QVERIFY2(err.contains("index ignored"), err.constData());
        // ... and it is made again, whole.
        const auto [third, thirdBytes] = traced({QStringLiteral("ls"), archive}, archive);
        QCOMPARE(third, first);
        QVERIFY(thirdBytes < 512 * 1024);
    }

    void noIndexReadsAndWritesNone()
    {
        const QString archive = dir_.filePath(QStringLiteral("a.tar.gz"));
        const auto [listing, bytes] = traced({QStringLiteral("--no-index"), QStringLiteral("ls"), archive}, archive);
        QVERIFY(listing.contains("zz-last.bin"));
        QCOMPARE(indexFiles(), 0);
        traced({QStringLiteral("ls"), archive}, archive);
        QCOMPARE(indexFiles(), 1);
        const auto [again, againBytes] = traced({QStringLiteral("--no-index"), QStringLiteral("ls"), archive}, archive);
        QVERIFY(againBytes >= QFileInfo(archive).size());
        // index --drop removes it; index says where it is and builds it again.
        const auto dropped = test::runCli({QStringLiteral("index"), QStringLiteral("--drop"), archive});
        QCOMPARE(dropped.exitCode, 0);
        QVERIFY(dropped.out.contains("index removed"));
        QCOMPARE(indexFiles(), 0);
        const QJsonObject facts = indexFacts(archive);
        QCOMPARE(facts.value(QStringLiteral("built_now")).toBool(), true);
        QVERIFY(QFileInfo::exists(facts.value(QStringLiteral("index_file")).toString()));
        QVERIFY(facts.value(QStringLiteral("index_file")).toString().startsWith(cache_.path()));
        // Not an indexed kind of file: said, exit 1.
        const auto plain = test::runCli({QStringLiteral("index"), dir_.filePath(QStringLiteral("plain.tar"))});
        QCOMPARE(plain.exitCode, 1);
        QVERIFY(plain.err.contains("not indexed"));
    }
};

QTEST_GUILESS_MAIN(TestArchiveIndex)
#include "tst_archive_index.moc"
