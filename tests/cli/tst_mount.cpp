// SPDX-License-Identifier: MIT
// `mount SPEC DIR` (FUSE 3): the mounted tree of a tar.gz is what bsdtar extracts (diff -r: files,
// folders, symlinks, hardlinks, empty files); a disk image mounts with its partitions, logical
// volumes and filesystems as folders, and an archive inside as a folder (--no-recursive: a file); a worker
// killed under the mount answers EIO and the mount still unmounts; `fusermount3 -u` ends the
// mounting process, which leaves no process behind.

#include "fixtures.h"
#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>
#include <csignal>
#include <sys/stat.h>

using namespace asc;

class TestMount : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString tarball_, extracted_;

    QString path(const QString &name) const { return dir_.filePath(name); }

    static bool unmount(const QString &dir) { return test::run(QStringLiteral("fusermount3"), {QStringLiteral("-u"), dir}).exitCode == 0; }

    // A mount in the foreground, in a QProcess the test ends with fusermount3.
    struct Foreground {
        QProcess process;
        bool start(const QStringList &args, const QString &dir)
        {
            process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
            process.start(QStringLiteral(CLI_PATH), QStringList{QStringLiteral("mount"), QStringLiteral("--foreground")} + args + QStringList{dir});
            if (!process.waitForStarted(10000))
                return false;
            for (int i = 0; i < 300 && !test::isMountPoint(dir); ++i) // up to 30 s for the worker and the mount
                QTest::qWait(100);
            return test::isMountPoint(dir);
        }
    };

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("fusermount3"));
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        ASC_REQUIRE_TOOL(QStringLiteral("7zz"));
        QVERIFY2(QFile::exists(QStringLiteral("/dev/fuse")), "no /dev/fuse on this machine");
        test::writeFile(dir_, QStringLiteral("src/a.txt"), "alpha\n");
        test::writeFile(dir_, QStringLiteral("src/docs/deep/b.txt"), test::seededWords(300000, 3));
        test::writeFile(dir_, QStringLiteral("src/docs/big.bin"), test::seededBytes(5 << 20, 4));
        test::writeFile(dir_, QStringLiteral("src/empty"), QByteArray());
        QVERIFY(QDir().mkpath(path(QStringLiteral("src/empty-folder"))));
        QVERIFY(QFile::link(QStringLiteral("../a.txt"), path(QStringLiteral("src/docs/link"))));
        QVERIFY(::link(QFile::encodeName(path(QStringLiteral("src/a.txt"))).constData(), QFile::encodeName(path(QStringLiteral("src/hard.txt"))).constData()) == 0);
        auto made = test::run(QStringLiteral("/bin/sh"),
                              {QStringLiteral("-c"), QStringLiteral("set -e; cd src; 7zz a -tzip ../inner.zip docs >/dev/null; cp ../inner.zip .; "
                                                                    "tar czf ../tree.tgz .; mkdir ../extracted; bsdtar -xf ../tree.tgz -C ../extracted")},
                              120000, dir_.path());
        QVERIFY2(made.exitCode == 0, made.err.constData());
        tarball_ = path(QStringLiteral("tree.tgz"));
        extracted_ = path(QStringLiteral("extracted"));
    }

    void aTarballMountsAsBsdtarExtractsIt()
    {
        const QString mnt = path(QStringLiteral("mnt-tar"));
        QVERIFY(QDir().mkpath(mnt));
        // In the background once mounted; the zip inside kept as the file it is, as bsdtar extracts it.
        auto started = test::runCli({QStringLiteral("mount"), QStringLiteral("--no-recursive"), tarball_, mnt});
        QVERIFY2(started.exitCode == 0, started.err.constData());
        QVERIFY(test::isMountPoint(mnt));
        auto diff = test::run(QStringLiteral("diff"), {QStringLiteral("-r"), QStringLiteral("--no-dereference"), extracted_, mnt});
        QVERIFY2(diff.exitCode == 0, diff.out.constData());
        QCOMPARE(QFileInfo(mnt + QStringLiteral("/docs/link")).symLinkTarget(), QFileInfo(mnt + QStringLiteral("/a.txt")).absoluteFilePath());
        QCOMPARE(QFileInfo(mnt + QStringLiteral("/empty-folder")).isDir(), true);
        // Read-only: nothing can be made or changed.
        QFile made(mnt + QStringLiteral("/new.txt"));
        QVERIFY(!made.open(QIODevice::WriteOnly));
        QFile changed(mnt + QStringLiteral("/a.txt"));
        QVERIFY(!changed.open(QIODevice::ReadWrite));
        QVERIFY(unmount(mnt));
        QVERIFY(!test::isMountPoint(mnt));
    }

    void unmountingEndsTheMountingProcess()
    {
        const QString mnt = path(QStringLiteral("mnt-fg"));
        QVERIFY(QDir().mkpath(mnt));
        Foreground mount;
        QVERIFY(mount.start({tarball_}, mnt));
        QFile a(mnt + QStringLiteral("/a.txt"));
        QVERIFY(a.open(QIODevice::ReadOnly));
        QCOMPARE(a.readAll(), QByteArray("alpha\n"));
        a.close();
        const qint64 worker = test::firstChildOf(mount.process.processId());
        QVERIFY(worker > 0);
        QVERIFY(unmount(mnt));
        QVERIFY(mount.process.waitForFinished(30000));
        QCOMPARE(mount.process.exitCode(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(test::processStat(QString::number(worker)).isEmpty(), 10000); // its worker is gone too
    }

    void aKilledWorkerIsAnIoErrorNotAHang()
    {
        const QString mnt = path(QStringLiteral("mnt-killed"));
        QVERIFY(QDir().mkpath(mnt));
        Foreground mount;
        QVERIFY(mount.start({tarball_}, mnt));
        QVERIFY(QFileInfo(mnt + QStringLiteral("/docs")).isDir());
        const qint64 worker = test::firstChildOf(mount.process.processId());
        QVERIFY(worker > 0);
        QVERIFY(::kill(pid_t(worker), SIGKILL) == 0);
        // Not read before: the read goes to the dead worker.
        auto cat = test::run(QStringLiteral("cat"), {mnt + QStringLiteral("/docs/big.bin")}, 60000);
        QVERIFY(cat.exitCode != 0);
        QVERIFY2(cat.err.contains("Input/output error"), cat.err.constData());
        QVERIFY(unmount(mnt));
        QVERIFY(mount.process.waitForFinished(30000));
    }

    void aDiskMountsWithItsVolumesAsFolders()
    {
        const QString disk = test::unpackDisk(dir_, QStringLiteral("lvm-gpt.raw.xz"), QStringLiteral("lvm-gpt.raw"));
        QVERIFY(!disk.isEmpty());
        const QString mnt = path(QStringLiteral("mnt-disk"));
        QVERIFY(QDir().mkpath(mnt));
        auto started = test::runCli({QStringLiteral("mount"), disk, mnt});
        QVERIFY2(started.exitCode == 0, started.err.constData());
        // Every file the fixture's truth lists, through GPT -> ext4 and GPT -> LVM -> XFS / ext4.
        int compared = 0;
        for (const QByteArrayList &row : test::diskTruth(QStringLiteral("lvm-gpt.files.tsv"))) {
            const QString volume = row[0] == "boot" ? QStringLiteral("p1") : QStringLiteral("p2/rhel/") + QString::fromUtf8(row[0]);
            QVERIFY2(QFileInfo(mnt + QLatin1Char('/') + volume).isDir(), qPrintable(volume));
            QCOMPARE(test::sha256File(mnt + QLatin1Char('/') + volume + QLatin1Char('/') + QString::fromUtf8(row[1])), row[3]);
            ++compared;
        }
        QVERIFY(compared >= 8);
        QCOMPARE(QFileInfo(mnt + QStringLiteral("/p2/rhel/swap")).size(), qint64(4194304)); // no filesystem: a file of its bytes
        QVERIFY(unmount(mnt));
    }

    void archivesInsideAreFoldersUnlessNoRecursive()
    {
        const QString mnt = path(QStringLiteral("mnt-recursive"));
        QVERIFY(QDir().mkpath(mnt));
        auto started = test::runCli({QStringLiteral("mount"), tarball_, mnt}); // CLI.md: archives inside are folders
        QVERIFY2(started.exitCode == 0, started.err.constData());
        QVERIFY(QFileInfo(mnt + QStringLiteral("/inner.zip")).isDir());
        QCOMPARE(test::sha256File(mnt + QStringLiteral("/inner.zip/docs/big.bin")), test::sha256File(path(QStringLiteral("src/docs/big.bin"))));
        QVERIFY(unmount(mnt));
        // --no-recursive: the zip is the file it is.
        auto plain = test::runCli({QStringLiteral("mount"), QStringLiteral("--no-recursive"), tarball_, mnt});
        QVERIFY2(plain.exitCode == 0, plain.err.constData());
        QCOMPARE(test::sha256File(mnt + QStringLiteral("/inner.zip")), test::sha256File(path(QStringLiteral("inner.zip"))));
        QVERIFY(unmount(mnt));
    }

    // A big member of an indexed tar.gz: a read far inside it starts at the index's point before
    // it, straight at the member's content, instead of decoding the member up to it. Counted in
    // the bytes the worker reads (/proc/PID/io), and the bytes compared with the file's.
    void randomReadsInsideAMemberGoThroughTheIndex()
    {
        const QByteArray words = test::seededWords(48 << 20, 11);
        test::writeFile(dir_, QStringLiteral("bigsrc/words.txt"), words);
        const QString archive = path(QStringLiteral("big.tgz"));
        QCOMPARE(test::run(QStringLiteral("tar"), {QStringLiteral("czf"), archive, QStringLiteral("-C"), path(QStringLiteral("bigsrc")), QStringLiteral("words.txt")}).exitCode, 0);
        auto indexed = test::runCli({QStringLiteral("index"), archive});
        QVERIFY2(indexed.exitCode == 0, indexed.err.constData());
        const qint64 archiveBytes = QFileInfo(archive).size();
        const QString mnt = path(QStringLiteral("mnt-random"));
        QVERIFY(QDir().mkpath(mnt));
        Foreground mount;
        QVERIFY(mount.start({archive}, mnt));
        const qint64 worker = test::firstChildOf(mount.process.processId());
        QVERIFY(worker > 0);
        auto readBytes = [worker] {
            QFile io(QStringLiteral("/proc/%1/io").arg(worker));
            if (!io.open(QIODevice::ReadOnly))
                return qint64(-1);
            for (const QByteArray &line : io.readAll().split('\n'))
                if (line.startsWith("rchar: "))
                    return line.mid(7).toLongLong();
            return qint64(-1);
        };
        QFile file(mnt + QStringLiteral("/words.txt"));
        QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Unbuffered));
        QCOMPARE(file.read(16), words.left(16));
        for (const qint64 offset : {qint64(40) << 20, qint64(7) << 20, qint64(30) << 20, (qint64(48) << 20) - 70000}) {
            const qint64 before = readBytes();
            QVERIFY(file.seek(offset));
            const QByteArray got = file.read(65536);
            const qint64 after = readBytes();
            QCOMPARE(got, words.mid(offset, 65536));
            // One span of the index (8 MiB decoded) and its neighbour at most, never the member so far.
            QVERIFY2(after - before < archiveBytes / 2, qPrintable(QStringLiteral("%1 bytes read for a 64 KiB read at %2 of a %3-byte archive").arg(after - before).arg(offset).arg(archiveBytes)));
        }
        file.close();
        QVERIFY(unmount(mnt));
        QVERIFY(mount.process.waitForFinished(30000));
    }

    void badArgumentsAreSaidBeforeMounting()
    {
        auto missing = test::runCli({QStringLiteral("mount"), path(QStringLiteral("nothing.tgz")), path(QStringLiteral("src"))});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains("nothing.tgz"), missing.err.constData());
        auto notFolder = test::runCli({QStringLiteral("mount"), tarball_, path(QStringLiteral("src/a.txt"))});
        QVERIFY(notFolder.exitCode != 0);
        QVERIFY2(notFolder.err.contains("not a folder"), notFolder.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestMount)
#include "tst_mount.moc"
