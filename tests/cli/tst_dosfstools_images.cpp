// SPDX-License-Identifier: MIT
// dosfstools' own test images (tests/data/thirdparty/dosfstools: NAME.fsck is a damaged volume
// fsck.fat's test repairs, NAME.xxd what fsck.fat makes of it, or a clean volume mkfs.fat and
// the label tools wrote), compared with mtools. A clean volume lists as `mdir` lists it and every
// file reads as `mtype` reads it. A damaged one gives, for each file, an error or what fsck.fat
// keeps under that name — never other bytes with exit 0. Where we knowingly differ, kKnown says
// why (and README's known differences the same).

#include "test_files.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace asc;

namespace {

const QString kImages = QStringLiteral(TEST_DATA_DIR "/thirdparty/dosfstools");

// "image/path": why we read it otherwise than fsck.fat keeps it.
const char *const kKnown[][2] = {
    {"check-chain_to_other_file/TESTROOT.TXT", "cross-linked clusters: each file's chain is read as stored (as mtools reads it); fsck.fat cuts the file that shares"},
    {"check-chain_to_other_file/TEST2.TXT", "cross-linked clusters: each file's chain is read as stored (as mtools reads it); fsck.fat cuts the file that shares"},
    {"check-bad_names/", "listing: names with characters FAT forbids are not listed (The Sleuth Kit drops them); fsck.fat renames them FSCK0000.000..."},
};

QString known(const QString &image, const QByteArray &path)
{
    for (const auto &k : kKnown) {
        const QString key = QString::fromLatin1(k[0]);
        if (key == image + QLatin1Char('/') + QString::fromUtf8(path))
            return QString::fromLatin1(k[1]);
    }
    return {};
}

struct Listed {
    QByteArray path;
    bool dir = false;
    bool unreadable = false;
};

QList<Listed> ourListing(const QString &image, int *exitCode)
{
    auto r = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), image});
    *exitCode = r.exitCode;
    QList<Listed> out;
    for (const QByteArray &line : r.out.split('\n')) {
        if (line.isEmpty())
            continue;
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        out.append({o[QStringLiteral("path")].toString().toUtf8(), o[QStringLiteral("type")].toString() == QLatin1String("dir"), o.contains(QStringLiteral("unreadable"))});
    }
    return out;
}

// mdir -/ -b -a: "::/DIR/" and "::/DIR/FILE.TXT", hidden and system files too.
QList<Listed> mtoolsListing(const QString &image)
{
    auto r = test::run(QStringLiteral("mdir"), {QStringLiteral("-/"), QStringLiteral("-b"), QStringLiteral("-a"), QStringLiteral("-i"), image, QStringLiteral("::")});
    QList<Listed> out;
    for (const QByteArray &line : r.out.split('\n')) {
        if (!line.startsWith("::/"))
            continue;
        const bool dir = line.endsWith('/');
        out.append({dir ? line.mid(3).chopped(1) : line.mid(3), dir, false});
    }
    return out;
}

QByteArray mtype(const QString &image, const QByteArray &path, int *exitCode)
{
    auto r = test::run(QStringLiteral("mtype"), {QStringLiteral("-i"), image, QStringLiteral("::/") + QString::fromUtf8(path)});
    *exitCode = r.exitCode;
    return r.out;
}

} // namespace

class TestDosfstoolsImages : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString unpack(const QString &file)
    {
        const QString image = dir_.filePath(file + QStringLiteral(".img"));
        if (!QFile::exists(image)) {
            auto r = test::run(QStringLiteral("xxd"), {QStringLiteral("-r"), kImages + QLatin1Char('/') + file, image});
            if (r.exitCode != 0)
                qFatal("xxd -r %s: %s", qPrintable(file), r.err.constData());
        }
        return image;
    }

private Q_SLOTS:
    void initTestCase()
    {
        for (const char *tool : {"xxd", "mdir", "mtype"})
            ASC_REQUIRE_TOOL(QString::fromLatin1(tool));
        qputenv("MTOOLS_SKIP_CHECK", "1"); // mtools' own geometry check refuses some of these
    }

    void cleanVolumesReadAsMtools_data()
    {
        QTest::addColumn<QString>("file");
        const QStringList files = QDir(kImages).entryList({QStringLiteral("*.xxd")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 30);
        for (const QString &f : files)
            QTest::newRow(qPrintable(f)) << f;
    }

    void cleanVolumesReadAsMtools()
    {
        QFETCH(QString, file);
        const QString image = unpack(file);
        int rc = -1;
        const QList<Listed> ours = ourListing(image, &rc);
        QCOMPARE(rc, 0);
        QStringList ourPaths, theirPaths;
        for (const Listed &l : ours)
            ourPaths << QString::fromUtf8(l.path) + (l.dir ? QStringLiteral("/") : QString());
        for (const Listed &l : mtoolsListing(image))
            theirPaths << QString::fromUtf8(l.path) + (l.dir ? QStringLiteral("/") : QString());
        ourPaths.sort();
        theirPaths.sort();
        QCOMPARE(ourPaths, theirPaths);
        for (const Listed &l : ours) {
            if (l.dir)
                continue;
            auto cat = test::runCli({QStringLiteral("cat"), image + QStringLiteral("!/") + QString::fromUtf8(l.path)});
            int theirs = -1;
            const QByteArray expected = mtype(image, l.path, &theirs);
            QCOMPARE(theirs, 0);
            QVERIFY2(cat.exitCode == 0, cat.err.constData());
            QVERIFY2(cat.out == expected, l.path.constData());
        }
    }

    void damagedVolumesGiveAnErrorOrWhatFsckKeeps_data()
    {
        QTest::addColumn<QString>("name");
        const QStringList files = QDir(kImages).entryList({QStringLiteral("check-*.fsck")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 15);
        for (const QString &f : files)
            QTest::newRow(qPrintable(f)) << f.chopped(5);
    }

    void damagedVolumesGiveAnErrorOrWhatFsckKeeps()
    {
        QFETCH(QString, name);
        const QString damaged = unpack(name + QStringLiteral(".fsck"));
        int rc = -1;
        const QList<Listed> ours = ourListing(damaged, &rc);
        if (!QFile::exists(kImages + QLatin1Char('/') + name + QStringLiteral(".xxd"))) {
            // No repaired image to compare with (check-huge: a volume larger than its dump).
            QVERIFY2(rc != 0 || ours.isEmpty(), qPrintable(name));
            return;
        }
        const QString repaired = unpack(name + QStringLiteral(".xxd"));
        QSet<QByteArray> keptPaths; // without FSCKnnnn.REC: lost clusters fsck.fat made files of
        for (const Listed &l : mtoolsListing(repaired)) {
            if (!(l.path.startsWith("FSCK") && l.path.endsWith(".REC")))
                keptPaths.insert(l.path);
        }
        for (const Listed &l : ours) {
            if (l.dir || l.unreadable)
                continue;
            auto cat = test::runCli({QStringLiteral("cat"), damaged + QStringLiteral("!/") + QString::fromUtf8(l.path)});
            if (cat.exitCode != 0) {
                QVERIFY2(!cat.err.isEmpty(), l.path.constData()); // an error says what
                continue;
            }
            int theirs = -1;
            const QByteArray kept = keptPaths.contains(l.path) ? mtype(repaired, l.path, &theirs) : QByteArray();
            const bool same = theirs == 0 && cat.out == kept;
            const QString why = known(name, l.path);
            if (!why.isEmpty()) {
                QVERIFY2(!same, qPrintable(QStringLiteral("%1/%2 no longer differs: drop it from kKnown").arg(name, QString::fromUtf8(l.path))));
                continue;
            }
            QVERIFY2(same, qPrintable(QStringLiteral("%1/%2: %3 bytes with exit 0, fsck.fat keeps %4").arg(name, QString::fromUtf8(l.path)).arg(cat.out.size()).arg(theirs == 0 ? QString::number(kept.size()) : QStringLiteral("no such file"))));
        }
        // What fsck keeps is listed: under its own name, and as many entries (a name fsck renames,
        // FSCK0000.000, is one of ours under its first name).
        QSet<QByteArray> listed;
        for (const Listed &l : ours)
            listed.insert(l.path);
        for (const QByteArray &path : keptPaths) {
            if (!path.startsWith("FSCK"))
                QVERIFY2(listed.contains(path), qPrintable(QStringLiteral("%1: %2 not listed").arg(name, QString::fromUtf8(path))));
        }
        const bool sameCount = ours.size() == keptPaths.size();
        if (!known(name, QByteArray()).isEmpty())
            QVERIFY2(!sameCount, qPrintable(QStringLiteral("%1 no longer differs: drop it from kKnown").arg(name)));
        else
            QVERIFY2(sameCount, qPrintable(QStringLiteral("%1: %2 entries listed, fsck.fat keeps %3").arg(name).arg(ours.size()).arg(keptPaths.size())));
    }

    // The two cases that gave wrong answers with exit 0: a circular chain read as nothing, and a
    // name written twice read as the first's bytes.
    void damageIsSaid()
    {
        const QString circular = unpack(QStringLiteral("check-circular_chain.fsck"));
        auto cat = test::runCli({QStringLiteral("cat"), circular + QStringLiteral("!/TEST4CLS.TXT")});
        QCOMPARE(cat.exitCode, 1);
        QVERIFY2(cat.err.contains("TEST4CLS.TXT") && cat.err.contains("damaged"), cat.err.constData());
        const QString twice = unpack(QStringLiteral("check-duplicate_names.fsck"));
        auto ls = test::runCli({QStringLiteral("ls"), twice});
        QCOMPARE(ls.exitCode, 1);
        QVERIFY2(ls.err.contains("TEST.TXT") && ls.err.contains("second entry of this name"), ls.err.constData());
        QCOMPARE(ls.out.count("TEST.TXT"), 2);
    }
};

QTEST_GUILESS_MAIN(TestDosfstoolsImages)
#include "tst_dosfstools_images.moc"
