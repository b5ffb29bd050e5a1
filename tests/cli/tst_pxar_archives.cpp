// SPDX-License-Identifier: MIT
// pxar through the CLI: archives our writer makes from a tree built here (v1 and split) list
// identically through decoder and accessor and read back byte-exact; `cat` of one deep file reads
// only a small fraction of a large archive; corrupted copies of the fixtures fail with a message
// naming the file and offset, never a crash.

#include "fixtures.h"
#include "formats/format.h"
#include "formats/pxar/pxar_container.h"
#include "io/counting_source.h"
#include "io/file_source.h"
#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>
#include <sys/stat.h>
#include <unistd.h>

using namespace asc;

class TestPxarArchives : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString makeTree()
    {
        const QString root = dir_.filePath(QStringLiteral("tree"));
        QDir().mkpath(root + QStringLiteral("/a/b/c"));
        QDir().mkpath(root + QStringLiteral("/empty"));
        QDir().mkpath(root + QStringLiteral("/many"));
        test::writeFile(dir_, QStringLiteral("tree/a/b/c/deep.bin"), test::seededBytes(700000, 1));
        test::writeFile(dir_, QStringLiteral("tree/top.txt"), "top\n");
        test::writeFile(dir_, QStringLiteral("tree/empty.txt"), {});
        for (int i = 0; i < 300; ++i)
            test::writeFile(dir_, QStringLiteral("tree/many/f%1.txt").arg(i), QByteArray::number(i));
        ::symlink("top.txt", (root + QStringLiteral("/link")).toLocal8Bit().constData());
        ::link((root + QStringLiteral("/top.txt")).toLocal8Bit().constData(), (root + QStringLiteral("/zz-hardlink")).toLocal8Bit().constData());
        ::mkfifo((root + QStringLiteral("/fifo")).toLocal8Bit().constData(), 0640);
        return root;
    }

    static QByteArray ls(const QString &spec)
    {
        auto r = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), spec});
        return r.exitCode == 0 ? r.out : "exit " + QByteArray::number(r.exitCode) + r.err;
    }

private Q_SLOTS:
    void writerRoundTrip()
    {
        const QString tree = makeTree();
        const QString v1 = dir_.filePath(QStringLiteral("t.pxar"));
        const QString v2 = dir_.filePath(QStringLiteral("t.mpxar"));
        QCOMPARE(test::runCli({QStringLiteral("pxar-create"), tree, QStringLiteral("-o"), v1}).exitCode, 0);
        QCOMPARE(test::runCli({QStringLiteral("pxar-create"), QStringLiteral("--split"), tree, QStringLiteral("-o"), v2}).exitCode, 0);
        QVERIFY(QFile::exists(dir_.filePath(QStringLiteral("t.ppxar"))));
        const QByteArray listing = ls(v1);
        QVERIFY(listing.contains("\"path\":\"a/b/c/deep.bin\""));
        QVERIFY(listing.contains("\"type\":\"fifo\""));
        QVERIFY(listing.contains("\"type\":\"hardlink\""));
        // Same tree, same listing, whichever layout (only where the content lies differs).
        static const QRegularExpression where(QStringLiteral(",\"(offset|detail)\":(\\d+|\"[^\"]*\")"));
        QCOMPARE(QString::fromUtf8(ls(v2)).remove(where), QString::fromUtf8(listing).remove(where));
        for (const QString &archive : {v1, v2}) {
            auto deep = test::runCli({QStringLiteral("cat"), archive + QStringLiteral("!/a/b/c/deep.bin")});
            QVERIFY(deep.out == test::seededBytes(700000, 1));
            auto hard = test::runCli({QStringLiteral("cat"), archive + QStringLiteral("!/zz-hardlink")});
            QCOMPARE(hard.out, QByteArray("top\n"));
            auto info = test::runCli({QStringLiteral("info"), QStringLiteral("--json"), archive});
            QCOMPARE(QJsonDocument::fromJson(info.out).object()[QStringLiteral("format")].toString(), QStringLiteral("pxar"));
        }
        // Extraction through the decoder walk.
        const QString out = dir_.filePath(QStringLiteral("out"));
        auto extracted = test::runCli({QStringLiteral("extract"), v2, QStringLiteral("-C"), out});
        QVERIFY(extracted.err.contains("fifo: refused"));
        QCOMPARE(test::sha256File(out + QStringLiteral("/a/b/c/deep.bin")), test::sha256(test::seededBytes(700000, 1)));
        QCOMPARE(test::sha256File(out + QStringLiteral("/zz-hardlink")), test::sha256("top\n"));
        QDir(out).removeRecursively();
    }

    // A lookup reads goodbye tables and names on its path, not the archive; opening through the
    // format probe (as `cat ARCHIVE!/path` does) must not read much more than the head either.
    void lookupReadsLittle()
    {
        const QString tree = dir_.filePath(QStringLiteral("big"));
        QDir().mkpath(tree + QStringLiteral("/x/y"));
        for (int i = 0; i < 40; ++i)
            test::writeFile(dir_, QStringLiteral("big/blob%1.bin").arg(i), test::seededBytes(1 << 20, quint32(i)));
        test::writeFile(dir_, QStringLiteral("big/x/y/needle.txt"), "needle\n");
        const QString archive = dir_.filePath(QStringLiteral("big.pxar"));
        QCOMPARE(test::runCli({QStringLiteral("pxar-create"), tree, QStringLiteral("-o"), archive}).exitCode, 0);
        auto counting = std::make_shared<CountingSource>(FileSource::open(archive).value());
        auto container = openContainer(counting);
        QVERIFY(container.ok());
        QCOMPARE((*container)->formatName(), QStringLiteral("pxar"));
        const uint64_t afterOpen = counting->bytes();
        auto entry = (*container)->find("x/y/needle.txt");
        QVERIFY(entry.ok());
        auto content = (*container)->open(*entry);
        QVERIFY(content.ok());
        char buf[16];
        QCOMPARE(*(*content)->readAt(0, buf), size_t(7));
        const uint64_t total = counting->bytes();
        QVERIFY2(total < counting->size() / 1000, qPrintable(QStringLiteral("read %1 of %2 bytes").arg(total).arg(counting->size())));
        qInfo("open read %llu bytes, lookup+read %llu more, archive %llu bytes", qulonglong(afterOpen), qulonglong(total - afterOpen), qulonglong(counting->size()));
    }

    // A pxar cut short (no goodbye tail: the accessor refuses it) is read front to back as far as
    // it goes: ls lists the entries before the cut, in order, then fails naming the offset; the
    // content of an entry whole before the cut is its bytes, one past the cut is refused.
    void truncatedListsWhatPrecedesTheCut()
    {
        const QString whole = test::dataPath(QStringLiteral("pxar/basic.pxar"));
        QFile f(whole);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        const QString cut = test::writeFile(dir_, QStringLiteral("cut.pxar"), bytes.left(bytes.size() * 7 / 10));
        auto paths = [](const QByteArray &jsonLines) {
            QList<QByteArray> out;
            for (const QByteArray &line : jsonLines.split('\n'))
                if (!line.isEmpty())
                    out << QJsonDocument::fromJson(line).object().value(QStringLiteral("path")).toString().toUtf8();
            return out;
        };
        auto full = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), whole});
        QCOMPARE(full.exitCode, 0);
        auto partial = test::runCli({QStringLiteral("ls"), QStringLiteral("--json"), cut});
        QCOMPARE(partial.exitCode, 1);
        QVERIFY2(partial.err.contains("cut.pxar: offset "), partial.err.constData());
        const QList<QByteArray> all = paths(full.out);
        const QList<QByteArray> some = paths(partial.out);
        QVERIFY2(some.size() >= 5 && some.size() < all.size(), qPrintable(QString::number(some.size())));
        for (qsizetype i = 0; i < some.size(); ++i)
            QCOMPARE(some[i], all[i]);
        // The first file listed: its bytes from the cut archive are those of the whole one.
        bool compared = false;
        for (const QByteArray &path : some) {
            auto fromWhole = test::runCli({QStringLiteral("cat"), whole + QStringLiteral("!/") + QString::fromUtf8(path)});
            if (fromWhole.exitCode != 0 || fromWhole.out.isEmpty())
                continue; // a directory, or empty
            auto fromCut = test::runCli({QStringLiteral("cat"), cut + QStringLiteral("!/") + QString::fromUtf8(path)});
            QCOMPARE(fromCut.exitCode, 0);
            QCOMPARE(fromCut.out, fromWhole.out);
            compared = true;
            break;
        }
        QVERIFY(compared);
        // The last file of the whole listing lies past the cut: refused, never padded.
        auto past = test::runCli({QStringLiteral("cat"), cut + QStringLiteral("!/") + QString::fromUtf8(all.last())});
        QCOMPARE(past.exitCode, 1);
        QVERIFY(past.out.isEmpty());
    }

    void corruptedFixtures()
    {
        for (const char *name : {"basic.pxar", "special.pxar", "manyentries.pxar"}) {
            QFile f(test::dataPath(QStringLiteral("pxar/") + QLatin1String(name)));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            std::vector<std::pair<QString, QByteArray>> variants;
            for (qsizetype cut : {qsizetype(0), qsizetype(10), qsizetype(57), bytes.size() / 3, bytes.size() - 30, bytes.size() - 1})
                variants.push_back({QStringLiteral("cut-%1-%2").arg(cut).arg(QLatin1String(name)), bytes.left(cut)});
            // Flipped bytes in the root goodbye table (the end of the archive).
            for (int back : {5, 20, 40, 60, 90}) {
                QByteArray flipped = bytes;
                flipped[bytes.size() - back] = char(flipped[bytes.size() - back] ^ 0x40);
                variants.push_back({QStringLiteral("flip-%1-%2").arg(back).arg(QLatin1String(name)), flipped});
            }
            // A huge size field in the first FILENAME's header.
            QByteArray huge = bytes;
            const qsizetype firstFilename = huge.indexOf(QByteArray::fromHex("b317390621117016"));
            QVERIFY(firstFilename > 0);
            huge.replace(firstFilename + 8, 8, QByteArray::fromHex("ffffffffffffff7f"));
            variants.push_back({QStringLiteral("huge-%1").arg(QLatin1String(name)), huge});
            for (const auto &[label, content] : variants) {
                const QString path = test::writeFile(dir_, label, content);
                for (const QString &command : {QStringLiteral("ls"), QStringLiteral("extract")}) {
                    QStringList args{command, path};
                    if (command == QLatin1String("extract"))
                        args << QStringLiteral("-C") << dir_.filePath(QStringLiteral("x-") + label);
                    auto r = test::run(QStringLiteral("/bin/sh"), QStringList{QStringLiteral("-c"), QStringLiteral("ulimit -v 1048576; exec \"$0\" \"$@\""), QStringLiteral(CLI_PATH)} + args, 20000);
                    QVERIFY2(r.exitCode == 0 || r.exitCode == 1, qPrintable(label + QStringLiteral(" ") + command));
                    if (r.exitCode == 1 && command == QLatin1String("ls"))
                        QVERIFY2(r.err.contains(label.toUtf8()), r.err.constData());
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestPxarArchives)
#include "tst_pxar_archives.moc"
