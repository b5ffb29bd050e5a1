// SPDX-License-Identifier: MIT
// Archives nobody here wrote, from other projects' test suites (tests/data/thirdparty, SOURCES
// says where from), read by us and by the reference reader: bsdtar for archives, xz -dc and
// lzip -dc for single streams. Where the reference extracts, we list the same names, extract
// the same bytes and `cat` each regular file to the same bytes; where it fails, we fail too
// (exit status non-zero) and leave no partial file. upstream's own expectation is checked too
// (xz's good-* decode, bad-* and unsupported-* do not). A difference either fails the test or
// is listed, with why, in thirdparty/KNOWN_DIFFERENCES (and the README's "Known differences
// from bsdtar"); a listed file that no longer differs fails too, so the list stays true.

#include "test_files.h"

#include "open/split_set.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

#include <unistd.h>

using namespace asc;

namespace {

const QString kCorpus = QStringLiteral(TEST_DATA_DIR "/thirdparty");
constexpr int kReferenceTimeoutMs = 15000;

bool isSingleStream(const QString &path)
{
    return path.endsWith(QLatin1String(".xz")) || path.endsWith(QLatin1String(".lzma")) || path.endsWith(QLatin1String(".lz"));
}

QStringList corpusFiles(bool singleStreams)
{
    QStringList files;
    QDirIterator it(kCorpus, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = QDir(kCorpus).relativeFilePath(path);
        if (!relative.contains(QLatin1Char('/')))
            continue; // SOURCES, KNOWN_DIFFERENCES
        if (relative.startsWith(QLatin1String("e2fsprogs/")) || relative.startsWith(QLatin1String("util-linux/")) || relative.startsWith(QLatin1String("qemu/")) ||
            relative.startsWith(QLatin1String("dosfstools/")))
            continue; // filesystem images: tst_ext_corpus compares them with debugfs
        if (isSingleStream(path) == singleStreams)
            files << relative;
    }
    files.sort();
    return files;
}

// KNOWN_DIFFERENCES: "relative/path  why" per line; '#' starts a comment.
QHash<QString, QString> knownDifferences()
{
    QHash<QString, QString> known;
    QFile file(kCorpus + QStringLiteral("/KNOWN_DIFFERENCES"));
    if (!file.open(QIODevice::ReadOnly))
        return known;
    for (const QByteArray &raw : file.readAll().split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const qsizetype space = line.indexOf(' ');
        known.insert(QString::fromUtf8(space < 0 ? line : line.left(space)), QString::fromUtf8(space < 0 ? QByteArray() : line.mid(space).trimmed()));
    }
    return known;
}

QString normalisedName(QString name)
{
    while (name.startsWith(QLatin1String("./")))
        name.remove(0, 2);
    while (name.startsWith(QLatin1Char('/')))
        name.remove(0, 1);
    while (name.endsWith(QLatin1Char('/')))
        name.chop(1);
    return name;
}

// Regular files and symlinks under `root`, relative path -> bytes (a link: "-> target").
QMap<QString, QByteArray> treeOf(const QString &root)
{
    QMap<QString, QByteArray> tree;
    QDirIterator it(root, QDir::Files | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo info(path);
        const QString relative = QDir(root).relativeFilePath(path);
        if (info.isSymLink()) {
            // The link as written (symLinkTarget() would make it absolute, so differ per folder).
            char target[4096];
            const ssize_t n = ::readlink(QFile::encodeName(path).constData(), target, sizeof target);
            tree.insert(relative, "-> " + QByteArray(target, n < 0 ? 0 : int(n)));
        } else if (info.isFile()) {
            QFile file(path);
            tree.insert(relative, file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>"));
        }
    }
    return tree;
}

QByteArray firstLine(const QByteArray &text)
{
    const QByteArray trimmed = text.trimmed();
    const qsizetype newline = trimmed.indexOf('\n');
    return newline < 0 ? trimmed : trimmed.left(newline);
}

} // namespace

class TestThirdpartyCorpus : public QObject {
    Q_OBJECT

    QHash<QString, QString> known_;
    QSet<QString> differing_;

    // Records a difference for `file`: a failure unless KNOWN_DIFFERENCES lists the file.
    void differ(const QString &file, const QString &what)
    {
        differing_.insert(file);
        if (!known_.contains(file))
            QFAIL(qPrintable(QStringLiteral("%1: %2").arg(file, what)));
        qInfo("%s: known difference (%s): %s", qPrintable(file), qPrintable(known_.value(file)), qPrintable(what));
    }

    void finishFile(const QString &file)
    {
        if (known_.contains(file) && !differing_.contains(file))
            QFAIL(qPrintable(QStringLiteral("%1 is listed in KNOWN_DIFFERENCES but agrees with the reference now: remove it").arg(file)));
    }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        ASC_REQUIRE_TOOL(QStringLiteral("xz"));
        ASC_REQUIRE_TOOL(QStringLiteral("lzip"));
        known_ = knownDifferences();
        QVERIFY2(corpusFiles(false).size() > 300, "the third-party corpus is missing");
        QVERIFY(QFile::exists(kCorpus + QStringLiteral("/SOURCES")));
    }

    void archiveAgreesWithBsdtar_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString &file : corpusFiles(false))
            QTest::newRow(qPrintable(file)) << file;
    }

    void archiveAgreesWithBsdtar()
    {
        QFETCH(QString, file);
        const QString path = kCorpus + QLatin1Char('/') + file;
        QTemporaryDir theirs, ours;
        // A passphrase is given so bsdtar never prompts for one (an encrypted entry then fails);
        // a reference that does not finish in time (bsdtar loops on some damaged RAR5) failed.
        const QString noPrompt = QStringLiteral("--passphrase=not-the-passphrase");
        // A part of a split set (RAR volumes) opens as the whole set: bsdtar reads the set as
        // libarchive's volume switching does, its parts end to end.
        QString reference = path;
        if (auto set = splitSetOf(path, [](const QString &name) { return QFileInfo(name).isFile(); }); set && *set) {
            reference = theirs.filePath(QStringLiteral(".whole-set"));
            QFile whole(reference);
            QVERIFY(whole.open(QIODevice::WriteOnly));
            for (const QString &part : (*set)->parts) {
                QFile in(part);
                QVERIFY(in.open(QIODevice::ReadOnly));
                whole.write(in.readAll());
            }
        }
        const auto list = test::run(QStringLiteral("bsdtar"), {noPrompt, QStringLiteral("-tf"), reference}, kReferenceTimeoutMs);
        const auto extract = test::run(QStringLiteral("bsdtar"), {noPrompt, QStringLiteral("-xf"), reference, QStringLiteral("-C"), theirs.path()}, kReferenceTimeoutMs);
        QFile::remove(theirs.filePath(QStringLiteral(".whole-set")));
        const auto ls = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), path});
        const auto ourExtract = test::runCli({QStringLiteral("extract"), path, QStringLiteral("-C"), ours.path()});
        QVERIFY2(ourExtract.exitCode == 0 || ourExtract.exitCode == 1, ourExtract.err.constData());

        // Nothing half-written is left behind, whatever happened.
        for (const QString &name : treeOf(ours.path()).keys())
            QVERIFY2(!name.contains(QLatin1String(".archivescope-tmp")), qPrintable(file + QStringLiteral(": left ") + name));

        if (list.exitCode == 0) {
            if (ls.exitCode != 0)
                return differ(file, QStringLiteral("bsdtar lists it, our ls fails: ") + QString::fromUtf8(firstLine(ls.err)));
            QSet<QString> ourNames;
            for (const QByteArray &line : ls.out.split('\n'))
                if (!line.isEmpty())
                    ourNames.insert(QJsonDocument::fromJson(line).object().value(QStringLiteral("path")).toString());
            for (const QByteArray &raw : list.out.split('\n')) {
                const QString name = normalisedName(QString::fromUtf8(raw));
                // bsdtar escapes what it cannot print; those names are compared by extraction.
                if (name.isEmpty() || name.contains(QLatin1Char('\\')) || name.contains(QChar::ReplacementCharacter))
                    continue;
                if (!ourNames.contains(name))
                    return differ(file, QStringLiteral("bsdtar lists '%1', our ls does not").arg(name));
            }
        } else if (ls.exitCode == 0) {
            return differ(file, QStringLiteral("bsdtar -t fails (%1), our ls succeeds").arg(QString::fromUtf8(firstLine(list.err))));
        }

        const QMap<QString, QByteArray> theirTree = treeOf(theirs.path());
        const QMap<QString, QByteArray> ourTree = treeOf(ours.path());
        if (extract.exitCode != 0) {
            if (ourExtract.exitCode == 0)
                return differ(file, QStringLiteral("bsdtar -x fails (%1), we extract with exit 0").arg(QString::fromUtf8(firstLine(extract.err))));
            // What we did extract is what bsdtar extracted too, where it got to the end of it.
            for (auto it = ourTree.begin(); it != ourTree.end(); ++it) {
                const auto their = theirTree.find(it.key());
                if (their != theirTree.end() && their->size() == it->size() && *their != *it)
                    return differ(file, QStringLiteral("'%1' has other bytes than bsdtar's").arg(it.key()));
            }
            return finishFile(file);
        }
        if (ourExtract.exitCode != 0)
            return differ(file, QStringLiteral("bsdtar extracts it, we fail: ") + QString::fromUtf8(firstLine(ourExtract.err)));
        for (auto it = theirTree.begin(); it != theirTree.end(); ++it) {
            const auto our = ourTree.find(it.key());
            if (our == ourTree.end())
                return differ(file, QStringLiteral("bsdtar extracts '%1', we do not").arg(it.key()));
            if (*our != *it)
                return differ(file, QStringLiteral("'%1': %2 bytes, bsdtar's %3 bytes differ").arg(it.key()).arg(our->size()).arg(it->size()));
        }
        for (auto it = ourTree.begin(); it != ourTree.end(); ++it)
            if (!theirTree.contains(it.key()))
                return differ(file, QStringLiteral("we extract '%1', bsdtar does not").arg(it.key()));
        // cat of every regular file bsdtar extracted (names that survive a QString argument).
        int catted = 0;
        for (auto it = theirTree.begin(); it != theirTree.end() && catted < 64; ++it) {
            if (it->startsWith("-> ") || QFile::encodeName(it.key()) != it.key().toUtf8())
                continue;
            ++catted;
            const auto cat = test::runCli({QStringLiteral("cat"), path + QStringLiteral("!/") + it.key()});
            if (cat.exitCode != 0 || cat.out != *it)
                return differ(file, QStringLiteral("cat '%1': exit %2, %3 bytes (bsdtar: %4): %5")
                                        .arg(it.key())
                                        .arg(cat.exitCode)
                                        .arg(cat.out.size())
                                        .arg(it->size())
                                        .arg(QString::fromUtf8(firstLine(cat.err))));
        }
        finishFile(file);
    }

    void singleStreamAgreesWithItsTool_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString &file : corpusFiles(true))
            QTest::newRow(qPrintable(file)) << file;
    }

    void singleStreamAgreesWithItsTool()
    {
        QFETCH(QString, file);
        const QString path = kCorpus + QLatin1Char('/') + file;
        // lzip's own files by lzip; xz-utils' .lz files by xz, whose tests they are (xz reads
        // lzip's version 0 members, which lzip 1.23 no longer does).
        const QString tool = file.startsWith(QLatin1String("lzip/")) && file.endsWith(QLatin1String(".lz")) ? QStringLiteral("lzip") : QStringLiteral("xz");
        const auto reference = test::run(tool, {QStringLiteral("-dc"), path});
        const QString base = QFileInfo(file).fileName();
        // upstream's own expectation, where the name gives it (xz-utils' tests/files/README).
        if (file.startsWith(QLatin1String("xz-utils/")) && base.startsWith(QLatin1String("good-")))
            QVERIFY2(reference.exitCode == 0, qPrintable(file + QStringLiteral(": the reference fails on a good file")));
        if (file.startsWith(QLatin1String("xz-utils/")) && (base.startsWith(QLatin1String("bad-")) || base.startsWith(QLatin1String("unsupported-"))))
            QVERIFY2(reference.exitCode != 0, qPrintable(file + QStringLiteral(": the reference decodes a bad file")));

        const auto ls = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), path});
        QByteArray ours;
        int ourExit = ls.exitCode;
        QByteArray ourError = ls.err;
        if (ls.exitCode == 0) {
            const QList<QByteArray> lines = ls.out.trimmed().split('\n');
            if (lines.size() != 1 || lines.first().isEmpty())
                return differ(file, QStringLiteral("a single stream lists %1 entries").arg(ls.out.trimmed().isEmpty() ? 0 : lines.size()));
            const QJsonObject entry = QJsonDocument::fromJson(lines.first()).object();
            const auto cat = test::runCli({QStringLiteral("cat"), path + QStringLiteral("!/") + entry.value(QStringLiteral("path")).toString()});
            ours = cat.out;
            ourExit = cat.exitCode;
            ourError = cat.err;
            if (cat.exitCode == 0 && !entry.value(QStringLiteral("size")).isNull() && qint64(entry.value(QStringLiteral("size")).toDouble()) != ours.size())
                return differ(file, QStringLiteral("ls says %1 bytes, cat gives %2").arg(qint64(entry.value(QStringLiteral("size")).toDouble())).arg(ours.size()));
        }
        if (reference.exitCode == 0) {
            if (ourExit != 0)
                return differ(file, QStringLiteral("%1 -dc decodes it, we fail: %2").arg(tool, QString::fromUtf8(firstLine(ourError))));
            if (ours != reference.out)
                return differ(file, QStringLiteral("%1 bytes, %2 -dc gives %3 other bytes").arg(ours.size()).arg(tool).arg(reference.out.size()));
        } else {
            if (ourExit == 0)
                return differ(file, QStringLiteral("%1 -dc fails (%2), we decode %3 bytes with exit 0").arg(tool, QString::fromUtf8(firstLine(reference.err))).arg(ours.size()));
            // The error is the decoder's, not "not an archive": a damaged stream is told apart.
            const bool referenceSaysUnknown = reference.err.contains("not recognized") || reference.err.contains("Bad magic");
            if (ourError.contains("not a recognised archive") && !referenceSaysUnknown && !base.contains(QLatin1String("magic")))
                return differ(file, QStringLiteral("a damaged stream is reported as an unknown format: ") + QString::fromUtf8(firstLine(ourError)));
        }
        finishFile(file);
    }
};

QTEST_GUILESS_MAIN(TestThirdpartyCorpus)
#include "tst_thirdparty_corpus.moc"
