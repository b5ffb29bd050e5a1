// SPDX-License-Identifier: MIT
// The GUI's worker process (remote/): a file inspected, listed, read, walked and extracted
// through it gives what the same calls give in this process; nested containers are opened there;
// a stop reaches it and the conversation stays in step; problems and trace records come back;
// forbidden acts fail inside it (opening any file included: the parent passes what it allows); a crash, the memory limit, a stop of a spinning worker and a kill
// from outside come back as errors naming the file, and a new channel works again.

#include "fixtures.h"
#include "io/cancel.h"
#include "sandbox/lockdown.h"
#include "sandbox/proc_io.h"
#include "io/trace.h"
#include "open/inspection.h"
#include "open/listing.h"
#include "remote/file_requests.h"
#include "remote/remote_container.h"
#include "test_files.h"
#include "vfs/extraction.h"
#include "vfs/problems.h"

#include <QDir>
#include <QTest>
#include <QtConcurrent/QtConcurrentRun>
#include <cerrno>
#include <future>
#include <csignal>
#include <unistd.h>

using namespace asc;

class TestWorkerChannel : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString tarGz_; // tree/ with text files and a 3 MiB random file
    QString zipOfTar_; // a zip holding a copy of the tar.gz
    QString manyTar_; // 3000 small files

    static std::vector<Entry> listAll(Container &container)
    {
        std::vector<Entry> entries;
        auto listed = container.list([&](const Entry &entry) {
            entries.push_back(entry);
            return true;
        });
        if (!listed)
            qWarning() << listed.error().toString();
        return entries;
    }

    // `test`: archivescope-test-worker, which also answers the test acts (attempt() below).
    static WorkerPtr startWorker(const QString &file, bool test = false)
    {
        WorkerSettings settings;
        if (test)
            settings.program = testWorker();
        auto worker = WorkerChannel::start(file, settings);
        if (!worker)
            qFatal("%s", qPrintable(worker.error().toString()));
        return *worker;
    }

    static QString testWorker() { return qEnvironmentVariable("ARCHIVESCOPE_TEST_WORKER"); }

    // The answer to a test-only request (what the worker's attempt came to), or the error.
    static QString attempt(const WorkerPtr &worker, const QByteArray &act)
    {
        auto answer = worker->ask(wire::Kind::Test, [&](wire::Message &m) { m << act; });
        if (!answer)
            return QStringLiteral("error: ") + answer.error().toString();
        QByteArray what;
        *answer >> what;
        return QString::fromUtf8(what);
    }

private Q_SLOTS:
    void initTestCase()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        QVERIFY2(QFileInfo(testWorker()).isExecutable(), "ARCHIVESCOPE_TEST_WORKER names no program");
        const QString tree = dir_.filePath(QStringLiteral("tree"));
        QDir().mkpath(tree + QStringLiteral("/sub"));
        test::writeFile(dir_, QStringLiteral("tree/a.txt"), "alpha\n");
        test::writeFile(dir_, QStringLiteral("tree/sub/b.txt"), "bravo\n");
        test::writeFile(dir_, QStringLiteral("tree/sub/random.bin"), test::seededBytes(3 << 20, 11));
        tarGz_ = dir_.filePath(QStringLiteral("t.tar.gz"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-czf"), tarGz_, QStringLiteral("-C"), dir_.path(), QStringLiteral("tree")}).exitCode, 0);
        zipOfTar_ = dir_.filePath(QStringLiteral("outer.zip"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("--format=zip"), QStringLiteral("-cf"), zipOfTar_, QStringLiteral("-C"), dir_.path(), QStringLiteral("t.tar.gz")}).exitCode, 0);
        const QString many = dir_.filePath(QStringLiteral("many"));
        QDir().mkpath(many);
        for (int i = 0; i < 3000; ++i)
            test::writeFile(dir_, QStringLiteral("many/f%1.txt").arg(i, 5, 10, QLatin1Char('0')), QByteArray::number(i));
        manyTar_ = dir_.filePath(QStringLiteral("many.tar"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-cf"), manyTar_, QStringLiteral("-C"), dir_.path(), QStringLiteral("many")}).exitCode, 0);
    }

    void answersAsInProcess()
    {
        auto here = inspect(tarGz_, InspectOptions{4096, false});
        QVERIFY(here.ok());
        auto worker = startWorker(tarGz_);
        auto there = inspectIn(worker, tarGz_, InspectOptions{4096, false});
        QVERIFY2(there.ok(), there.ok() ? "" : qPrintable(there.error().toString()));
        QCOMPARE(there->inspection.formatName, here->inspection.formatName);
        QCOMPARE(there->inspection.formatInfo, here->inspection.formatInfo);
        QCOMPARE(there->inspection.head, here->inspection.head);
        QCOMPARE(there->inspection.size, here->inspection.size);
        QVERIFY(std::dynamic_pointer_cast<RemoteContainer>(there->container));
        QCOMPARE(there->container->formatName(), QStringLiteral("tar"));
        QCOMPARE(there->location.source->size(), here->location.source->size());

        const auto expected = listAll(*here->container);
        const auto listed = listAll(*there->container);
        QCOMPARE(listed.size(), expected.size());
        for (size_t i = 0; i < listed.size(); ++i) {
            QCOMPARE(listed[i].path, expected[i].path);
            QCOMPARE(listed[i].size, expected[i].size);
            QCOMPARE(listed[i].mtime, expected[i].mtime);
            QCOMPARE(listed[i].mode, expected[i].mode);
            QCOMPARE(int(listed[i].type), int(expected[i].type));
        }

        // Content through a remote source, read in odd pieces across the 16 MiB answer limit's
        // small cousin: 1 MiB + 3 bytes at a time.
        auto random = there->container->find("tree/sub/random.bin");
        QVERIFY(random.ok());
        auto content = there->container->open(*random);
        QVERIFY(content.ok());
        QByteArray got;
        QByteArray piece((1 << 20) + 3, Qt::Uninitialized);
        for (uint64_t offset = 0;;) {
            auto n = (*content)->readAt(offset, std::span<char>(piece.data(), size_t(piece.size())));
            QVERIFY(n.ok());
            if (*n == 0)
                break;
            got += piece.left(qsizetype(*n));
            offset += *n;
        }
        QCOMPARE(got, test::seededBytes(3 << 20, 11));

        auto missing = there->container->find("tree/nope");
        QVERIFY(!missing.ok());
        QCOMPARE(int(missing.error().kind), int(ErrorKind::NotFound));
        QVERIFY(worker->alive());
    }

    void extractsInThisProcess()
    {
        auto worker = startWorker(tarGz_);
        auto there = inspectIn(worker, tarGz_);
        QVERIFY(there.ok());
        QTemporaryDir out;
        auto report = extractEntries(*there->container, "tree/sub", out.path(), ExtractOptions{});
        QVERIFY2(report.ok(), report.ok() ? "" : qPrintable(report.error().toString()));
        QCOMPARE(report->files, uint64_t(2));
        QFile random(out.filePath(QStringLiteral("tree/sub/random.bin")));
        QVERIFY(random.open(QIODevice::ReadOnly));
        QCOMPARE(random.readAll(), test::seededBytes(3 << 20, 11));
        QVERIFY(!QFile::exists(out.filePath(QStringLiteral("tree/a.txt"))));
    }

    void opensNestedContainersInTheWorker()
    {
        auto worker = startWorker(zipOfTar_);
        auto zip = inspectIn(worker, zipOfTar_);
        QVERIFY(zip.ok());
        QCOMPARE(zip->container->formatName(), QStringLiteral("zip"));
        auto inner = zip->container->find("t.tar.gz");
        QVERIFY(inner.ok());
        auto nested = openNestedAsync(zip->container, *inner, {}).result();
        QVERIFY2(nested.ok(), nested.ok() ? "" : qPrintable(nested.error().toString()));
        QVERIFY(std::dynamic_pointer_cast<RemoteContainer>(*nested));
        QCOMPARE((*nested)->formatName(), QStringLiteral("tar"));
        QCOMPARE(listAll(**nested).size(), size_t(5)); // tree, a.txt, sub, b.txt, random.bin
        // A SPEC into the zip resolves there too.
        auto spec = inspectIn(worker, zipOfTar_ + QStringLiteral("!/t.tar.gz!/tree/sub"));
        QVERIFY(spec.ok());
        QVERIFY(spec->inspection.directory);
        QCOMPARE(spec->location.directory, QByteArray("tree/sub"));
    }

    void stopsEarlyAndStaysInStep()
    {
        auto worker = startWorker(manyTar_);
        auto there = inspectIn(worker, manyTar_);
        QVERIFY(there.ok());
        int seen = 0;
        auto listed = there->container->list([&](const Entry &) { return ++seen < 5; });
        QVERIFY(listed.ok());
        QCOMPARE(seen, 5);
        QCOMPARE(listAll(*there->container).size(), size_t(3001));
        QVERIFY(worker->alive());
    }

    void readsBesideAListing()
    {
        // The window's details pane reads an entry the tree already shows while the listing goes
        // on: the read is the short lane's, answered while the listing holds the other. Before
        // the lanes it waited for the whole listing: here, inside the listing, it never came.
        auto worker = startWorker(manyTar_);
        auto there = inspectIn(worker, manyTar_);
        QVERIFY(there.ok());
        QByteArray content;
        bool answered = false;
        std::future<QByteArray> late;
        int listedCount = 0;
        auto listed = there->container->list([&](const Entry &entry) {
            ++listedCount;
            if (entry.path != "many/f00007.txt")
                return true;
            auto read = std::async(std::launch::async, [&]() -> QByteArray {
                auto source = there->container->open(entry);
                if (!source)
                    return "error: " + source.error().toString().toUtf8();
                QByteArray bytes(16, '\0');
                auto got = (*source)->readAt(0, std::span<char>(bytes.data(), size_t(bytes.size())));
                return got ? bytes.left(qsizetype(*got)) : "error: " + got.error().toString().toUtf8();
            });
            // Not a time bound: a guard so a read that waits for this listing fails the test
            // instead of hanging it.
            answered = read.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
            if (answered)
                content = read.get();
            else
                late = std::move(read); // it comes once the listing ends
            return true;
        });
        if (late.valid())
            late.wait();
        QVERIFY(listed.ok());
        QVERIFY2(answered, "the read waited for the listing");
        QCOMPARE(content, QByteArray("7"));
        QCOMPARE(listedCount, 3001);
        QCOMPARE(listAll(*there->container).size(), size_t(3001)); // in step after both
        QVERIFY(worker->alive());
    }

    void stopReachesTheWorkerInsideAnEntry()
    {
        // small.txt, then 40 MiB that do not compress, then last.txt. Stop when the first entry
        // arrives: the worker, decompressing its way through the big entry, hears of it at its
        // next read, so it stops short of the file's end and never lists last.txt. (How far it
        // gets depends on how soon this thread is scheduled to pass the stop on: the bound is
        // loose so a busy machine does not fail it.)
        QDir().mkpath(dir_.filePath(QStringLiteral("big")));
        test::writeFile(dir_, QStringLiteral("big/a-small.txt"), "small\n");
        test::writeFile(dir_, QStringLiteral("big/b-big.bin"), test::seededBytes(40 << 20, 5));
        test::writeFile(dir_, QStringLiteral("big/c-last.txt"), "last\n");
        const QString big = dir_.filePath(QStringLiteral("big.tar.gz"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-czf"), big, QStringLiteral("-C"), dir_.filePath(QStringLiteral("big")),
                                                      QStringLiteral("a-small.txt"), QStringLiteral("b-big.bin"), QStringLiteral("c-last.txt")})
                     .exitCode,
                 0);
        // A machine too busy to run this thread while the worker decodes 40 MiB can make one try
        // miss the window: up to three tries, each with a fresh worker; a stop that never reaches
        // the worker fails all three.
        QString why;
        for (int attempt = 0; attempt < 3; ++attempt) {
            auto worker = startWorker(big);
            auto there = inspectIn(worker, big);
            QVERIFY(there.ok());
            const uint64_t readBefore = readProcIo(int(worker->pid()))->rchar;
            CancelFlag cancel;
            QList<QByteArray> seen;
            Result<void> listed;
            {
                const CancelScope stop(cancel);
                listed = there->container->list([&](const Entry &entry) {
                    seen << entry.path;
                    cancel.cancel();
                    return true;
                });
            }
            const uint64_t read = readProcIo(int(worker->pid()))->rchar - readBefore;
            // In step whatever happened: the next request is answered.
            QCOMPARE(listAll(*there->container).size(), size_t(3));
            if (!listed.ok() && listed.error().kind == ErrorKind::Cancelled && !seen.contains("c-last.txt") &&
                read < uint64_t(QFileInfo(big).size()) * 3 / 4)
                return;
            why += QStringLiteral("try %1: %2, saw %3 entries, read %4 bytes\n")
                       .arg(attempt)
                       .arg(listed.ok() ? QStringLiteral("listed to the end") : listed.error().toString())
                       .arg(seen.size())
                       .arg(read);
        }
        QFAIL(qPrintable(why));
    }

    void bringsProblemsAndTracesBack()
    {
        // A tar cut inside its last header: the worker reports it, this thread hears of it.
        QFile whole(manyTar_);
        QVERIFY(whole.open(QIODevice::ReadOnly));
        const QString cut = test::writeFile(dir_, QStringLiteral("cut.tar"), whole.read(512 * 40 + 100));
        auto worker = startWorker(cut);
        auto there = inspectIn(worker, cut);
        QVERIFY(there.ok());
        std::vector<Error> problems;
        std::optional<Error> failure;
        {
            const ProblemScope collect([&](const Error &problem) { problems.push_back(problem); });
            auto listed = there->container->list([](const Entry &) { return true; });
            if (!listed)
                failure = listed.error();
        }
        QVERIFY(failure || !problems.empty());
        const Error said = failure ? *failure : problems.front();
        QVERIFY2(said.toString().contains(QStringLiteral("cut.tar")), qPrintable(said.toString()));

        IoTrace::start();
        auto traced = inspectIn(startWorker(tarGz_), tarGz_);
        const auto records = IoTrace::stop();
        QVERIFY(traced.ok());
        QVERIFY(!records.empty());
        QVERIFY(IoTrace::files().contains(tarGz_));
        QVERIFY(std::all_of(records.begin(), records.end(), [](const TraceRecord &r) { return r.thread >= 100; }));
    }

    void shippedWorkerAnswersNoTestAct()
    {
        auto worker = startWorker(tarGz_);
        for (const char *act : {"crash", "allocate", "spin", "exec", "ask-parent:/etc/passwd"}) {
            const QString what = attempt(worker, act);
            QVERIFY2(what.startsWith(QStringLiteral("error: ")) && what.contains(QStringLiteral("unknown request")), qPrintable(what));
            QVERIFY(worker->alive());
        }
        QVERIFY(inspectIn(worker, tarGz_).ok());
    }

    void forbiddenActsFailInside()
    {
        auto worker = startWorker(tarGz_, true);
        for (const char *act : {"open-write", "socket", "exec", "ptrace"}) {
            const QString what = attempt(worker, act);
            QVERIFY2(what.startsWith(QStringLiteral("refused: ")), qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(act), what)));
        }
        QVERIFY(!QFile::exists(QStringLiteral("/tmp/archivescope-worker-test")));
        // Nor can it open anything for reading: files come from the parent, which passes only the
        // file, what its format reads beside it (a tar.gz: nothing), and backing files the user allowed.
        QVERIFY(attempt(worker, "read").startsWith(QStringLiteral("refused: ")));
        QCOMPARE(attempt(worker, "ask-parent:" + QFile::encodeName(tarGz_)), QStringLiteral("allowed"));
        const QString beside = attempt(worker, "ask-parent:" + QFile::encodeName(manyTar_));
        QVERIFY2(beside.startsWith(QStringLiteral("refused: ")), qPrintable(beside));
        const QString outside = attempt(worker, "ask-parent:/etc/passwd");
        QVERIFY2(outside.startsWith(QStringLiteral("refused: ")) && outside.contains(QStringLiteral("/etc/passwd")), qPrintable(outside));
        QVERIFY(worker->alive());
    }

    void eachFileGrantsWhatItsFormatReadsBeside()
    {
        // The rule as it was: every file granted its folder and below, so an archive at / granted
        // the machine and a block device all of /dev.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.path();
        QVERIFY(QDir().mkpath(path + QStringLiteral("/sub")));
        const QString archive = path + QStringLiteral("/a.tar.gz"), other = path + QStringLiteral("/other.txt");
        QVERIFY(QFile::copy(tarGz_, archive));
        test::writeFile(dir, QStringLiteral("other.txt"), "secret\n");
        const QString disk = path + QStringLiteral("/top.qcow2"), base = path + QStringLiteral("/sub/base.qcow2");
        QVERIFY(QFile::copy(test::dataPath(QStringLiteral("images/chain-top.qcow2")), disk));
        QVERIFY(QFile::copy(test::dataPath(QStringLiteral("images/chain-base.qcow2")), base));
        test::writeFile(dir, QStringLiteral("split.mpxar"), "pxar metadata");
        test::writeFile(dir, QStringLiteral("split.ppxar"), "pxar payload");
        auto covers = [](const QString &file, const QString &asked) {
            return grantCovers(grantOf(file), QFile::encodeName(QFileInfo(asked).canonicalFilePath()));
        };
        QVERIFY(covers(archive, archive));
        QVERIFY(!covers(archive, other)); // an archive reads nothing beside it
        QVERIFY(covers(disk, base)); // a qcow2's backing file, below its folder
        QVERIFY(covers(disk, other));
        QVERIFY(!covers(disk, QStringLiteral("/etc/passwd")));
        QVERIFY(covers(path + QStringLiteral("/split.mpxar"), path + QStringLiteral("/split.ppxar")));
        QVERIFY(!covers(path + QStringLiteral("/split.mpxar"), other));
        // A device: itself, not its neighbours in /dev.
        QVERIFY(covers(QStringLiteral("/dev/null"), QStringLiteral("/dev/null")));
        QVERIFY(!covers(QStringLiteral("/dev/null"), QStringLiteral("/dev/zero")));
        // A disk image at the root: the files beside it, not the machine below it.
        FileGrant atRoot;
        atRoot.file = "/disk.qcow2";
        atRoot.siblings = FileGrant::Siblings::Folder;
        QVERIFY(grantCovers(atRoot, "/base.qcow2"));
        QVERIFY(!grantCovers(atRoot, "/etc/passwd"));
        QVERIFY(!grantCovers(FileGrant{}, "/etc/passwd")); // a file that is not there grants nothing
        // Through the parent's policy as the worker meets it.
        const int fd = openForWorker({disk}, QFile::encodeName(base));
        QVERIFY2(fd >= 0, qPrintable(QString::number(fd)));
        ::close(fd);
        QCOMPARE(openForWorker({archive}, QFile::encodeName(other)), -EACCES);
    }

    void carriesNoNetworkCode()
    {
        // The Sleuth Kit is loaded, but not the libcurl, GnuTLS, OpenSSL, Kerberos and LDAP its
        // libafflib would bring: the worker finds our empty libafflib first (core/CMakeLists.txt).
        auto worker = startWorker(tarGz_);
        QVERIFY(inspectIn(worker, tarGz_).ok()); // loaded, and working
        QFile maps(QStringLiteral("/proc/%1/maps").arg(worker->pid()));
        QVERIFY(maps.open(QIODevice::ReadOnly));
        const QByteArray mapped = maps.readAll();
        QVERIFY2(mapped.contains("/libtsk.so"), mapped.constData());
        QVERIFY2(mapped.contains("/archivescope/libafflib.so.0"), mapped.constData());
        for (const char *library : {"/libcurl", "/libgnutls", "/libssl.", "/libcrypto.", "/libkrb5", "/libldap"})
            QVERIFY2(!mapped.contains(library), library);
    }

    void deathsBecomeErrorsNamingTheFile()
    {
        auto crashing = startWorker(tarGz_, true);
        const QString crash = attempt(crashing, "crash");
        QVERIFY2(crash.contains(tarGz_) && crash.contains(QStringLiteral("signal 11")), qPrintable(crash));
        QVERIFY(!crashing->alive());
        QVERIFY(!inspectIn(crashing, tarGz_).ok()); // dead stays dead

        // Killed from outside mid-listing: the listing fails with the cause.
        auto killed = startWorker(manyTar_);
        auto there = inspectIn(killed, manyTar_);
        QVERIFY(there.ok());
        int seen = 0;
        auto listed = there->container->list([&](const Entry &) {
            if (++seen == 10)
                ::kill(killed->pid(), SIGKILL);
            return true;
        });
        if (listed.ok()) {
            // The whole listing was in flight before the kill landed (3,000 entries fit the
            // socket): the next request says why the worker is gone.
            auto after = inspectIn(killed, manyTar_);
            QVERIFY(!after.ok());
            QVERIFY2(after.error().toString().contains(QStringLiteral("signal 9")), qPrintable(after.error().toString()));
        } else {
            QVERIFY2(listed.error().toString().contains(QStringLiteral("signal 9")), qPrintable(listed.error().toString()));
        }

        // A spinning worker: the channel counts the quiet seconds; stop() ends it.
        auto spinning = startWorker(tarGz_, true);
        auto spin = QtConcurrent::run([&] { return attempt(spinning, "spin"); });
        QTRY_VERIFY_WITH_TIMEOUT(spinning->secondsWithoutProgress() >= 1, 20000);
        spinning->stop();
        const QString stopped = spin.result();
        QVERIFY2(stopped.contains(QStringLiteral("stopped")) && stopped.contains(tarGz_), qPrintable(stopped));

        // A fresh worker for the same file works.
        auto fresh = startWorker(tarGz_);
        QVERIFY(inspectIn(fresh, tarGz_).ok());
    }

    void memoryLimitEndsTheWorker()
    {
        if (!lockdownHasMemoryLimit())
            QSKIP("a sanitizer build's workers run without the memory limit (the shadow memory needs the address space)");
        WorkerSettings settings;
        settings.limits.memoryBytes = uint64_t(256) << 20;
        settings.program = testWorker();
        auto worker = WorkerChannel::start(tarGz_, settings);
        QVERIFY(worker.ok());
        const QString what = attempt(*worker, "allocate");
        QVERIFY2(what.contains(QStringLiteral("out of memory")) && what.contains(QStringLiteral("256 MiB")), qPrintable(what));
    }
};

QTEST_GUILESS_MAIN(TestWorkerChannel)
#include "tst_worker_channel.moc"
