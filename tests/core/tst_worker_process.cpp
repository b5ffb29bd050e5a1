// SPDX-License-Identifier: MIT
// The sandboxed worker (sandbox/worker_process, sandbox/lockdown): inside it each forbidden act fails —
// opening a file for writing or creating one, removing one, starting a program, forking, making
// a socket, tracing a process, setting up io_uring — while reading a file still works; a crash,
// an allocation past the memory limit and a loop that works without reading or writing each end
// the worker and come back as what they were; a worker that only waits is left alone. Through
// the CLI: a worker killed mid-cat is a clean error (exit 1) naming the file.

#include "sandbox/ring_pool.h"
#include "sandbox/progress_watch.h"
#include "sandbox/worker_process.h"
#include "test_files.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <fcntl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/io_uring.h>
#include <unistd.h>
#include <thread>
#include <vector>

using namespace asc;

class TestWorkerProcess : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    // Runs `act` in a worker: it returns 0 when the act was refused with one of `errors`.
    static int refused(const std::function<long()> &act, std::initializer_list<int> errors, bool mayOpenFiles = true)
    {
        WorkerLimits limits;
        limits.lockdown.mayOpenFiles = mayOpenFiles;
        const WorkerEnd end = runInWorker(
            [&] {
                errno = 0;
                const long rc = act();
                if (rc >= 0)
                    return 10; // it was allowed
                for (int e : errors)
                    if (errno == e)
                        return 0;
                return 11; // failed, but not as the filter says
            },
            limits);
        return end.signal ? 100 + end.signal : end.exitCode;
    }

    // Runs `act` in a worker: it returns 0 when the act succeeded there.
    static int allowed(const std::function<bool()> &act)
    {
        const WorkerEnd end = runInWorker([&] { return act() ? 0 : 12; }, WorkerLimits{});
        return end.signal ? 100 + end.signal : end.exitCode;
    }

private Q_SLOTS:
    void forbiddenActsFail()
    {
        const QByteArray target = dir_.filePath(QStringLiteral("written")).toLocal8Bit();
        const QByteArray readable = test::writeFile(dir_, QStringLiteral("readable"), "bytes").toLocal8Bit();
        QCOMPARE(refused([&] { return long(::open(target.constData(), O_WRONLY | O_CREAT, 0644)); }, {EACCES}), 0);
        QCOMPARE(refused([&] { return long(::open(readable.constData(), O_RDWR)); }, {EACCES}), 0);
        QCOMPARE(refused([&] { return long(::open(readable.constData(), O_WRONLY | O_APPEND)); }, {EACCES}), 0);
        QCOMPARE(refused([&] { return long(::openat(AT_FDCWD, readable.constData(), O_WRONLY | O_TRUNC)); }, {EACCES}), 0);
        QCOMPARE(refused([&] { return long(::unlink(readable.constData())); }, {EACCES}), 0);
        QCOMPARE(refused([&] { return long(::rename(readable.constData(), target.constData())); }, {EACCES}), 0);
        QCOMPARE(refused([&] { return long(::mkdir(target.constData(), 0755)); }, {EACCES}), 0);
        QCOMPARE(refused(
                     [] {
                         char *argv[] = {const_cast<char *>("/bin/true"), nullptr};
                         return long(::execv("/bin/true", argv));
                     },
                     {EPERM}),
                 0);
        QCOMPARE(refused([] { return long(::fork()); }, {EPERM}), 0);
        QCOMPARE(refused([] { return long(::socket(AF_INET, SOCK_STREAM, 0)); }, {EACCES}), 0);
        QCOMPARE(refused([] { return long(::socket(AF_UNIX, SOCK_STREAM, 0)); }, {EACCES}), 0);
        QCOMPARE(refused([] { return long(::ptrace(PTRACE_ATTACH, ::getppid(), nullptr, nullptr)); }, {EPERM}), 0);
        QCOMPARE(refused(
                     [] {
                         io_uring_params params{};
                         return long(::syscall(__NR_io_uring_setup, 4, &params));
                     },
                     {EPERM}),
                 0);
        // What a parser needs still works: reading a file, threads.
        QCOMPARE(allowed([&] { return ::open(readable.constData(), O_RDONLY) >= 0; }), 0);
        QCOMPARE(allowed([] {
                     std::thread t([] {});
                     t.join();
                     return true;
                 }),
                 0);
        QVERIFY(!QFile::exists(QString::fromLocal8Bit(target)));
        QVERIFY(QFile::exists(QString::fromLocal8Bit(readable)));
        // The workers of the shells open nothing at all: their parent passes what they may read.
        QCOMPARE(refused([&] { return long(::open(readable.constData(), O_RDONLY)); }, {EACCES}, false), 0);
        QCOMPARE(refused([&] { return long(::openat(AT_FDCWD, readable.constData(), O_RDONLY)); }, {EACCES}, false), 0);
    }

    void workerRingsOnlyRead()
    {
        // The rings a benchmarking worker makes before locking down read what it holds, and the
        // kernel refuses anything else on them: opening a file through the ring (which the
        // seccomp filter cannot see) fails with EACCES.
        const QByteArray readable = test::writeFile(dir_, QStringLiteral("ring-readable"), "ring bytes").toLocal8Bit();
        const int fd = ::open(readable.constData(), O_RDONLY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        WorkerLimits limits;
        limits.lockdown.mayOpenFiles = false;
        limits.lockdown.plainRings = 1;
        const WorkerEnd end = runInWorker(
            [&] {
                io_uring ring{};
                if (!setUpRing({4, false}, &ring))
                    return 20;
                auto complete = [&ring](auto prepare) {
                    io_uring_sqe *sqe = io_uring_get_sqe(&ring);
                    prepare(sqe);
                    io_uring_submit(&ring);
                    io_uring_cqe *cqe = nullptr;
                    if (io_uring_wait_cqe(&ring, &cqe) != 0)
                        return -9999;
                    const int res = cqe->res;
                    io_uring_cqe_seen(&ring, cqe);
                    return res;
                };
                char bytes[16] = {};
                if (complete([&](io_uring_sqe *sqe) { io_uring_prep_read(sqe, fd, bytes, sizeof bytes, 0); }) != 10)
                    return 21;
                if (complete([&](io_uring_sqe *sqe) { io_uring_prep_openat(sqe, AT_FDCWD, readable.constData(), O_RDONLY, 0); }) != -EACCES)
                    return 22;
                endRing(&ring);
                // The pool has one ring, lent again once given back; a second at once is refused.
                io_uring again{}, more{};
                if (!setUpRing({4, false}, &again) || setUpRing({4, false}, &more))
                    return 23;
                return 0;
            },
            limits);
        ::close(fd);
        QCOMPARE(end.exitCode, 0);
    }

    void cliWorkerGetsFilesFromItsParent()
    {
        // `ls` of a pxar split in two files: the worker asks for the .ppxar beside the .mpxar and
        // gets it; a SPEC naming a folder is told so in the same words as without the sandbox.
        const QString pxar = QStringLiteral(TEST_DATA_DIR "/pxar/basic.mpxar");
        const auto sandboxed = test::runCli({QStringLiteral("ls"), pxar});
        const auto here = test::runCli({QStringLiteral("--no-sandbox"), QStringLiteral("ls"), pxar});
        QCOMPARE(sandboxed.exitCode, 0);
        QCOMPARE(sandboxed.out, here.out);
        const auto folder = test::runCli({QStringLiteral("ls"), dir_.path()});
        QCOMPARE(folder.exitCode, 1);
        QVERIFY2(folder.err.contains("is a directory"), folder.err.constData());
    }

    void deathsComeBackAsWhatTheyWere()
    {
        WorkerLimits limits;
        WorkerEnd crash = runInWorker([] { return ::raise(SIGSEGV); }, limits);
        QCOMPARE(crash.signal, SIGSEGV);

        limits.noProgressSeconds = 1;
        WorkerEnd spin = runInWorker(
            [] {
                volatile uint64_t n = 0;
                for (;;)
                    n = n + 1;
                return 0;
            },
            limits);
        QVERIFY(spin.stalled);
        QCOMPARE(spin.signal, SIGKILL);

        // Waiting (no CPU) for longer than the limit is not a stall.
        WorkerEnd wait = runInWorker(
            [] {
                ::sleep(2);
                return 7;
            },
            limits);
        QVERIFY(!wait.stalled);
        QCOMPARE(wait.exitCode, 7);
    }

    void progressIsOneDefinitionForBothSupervisors()
    {
        // sandbox/progress_watch, which the CLI's supervision and the window's channel share:
        // counters given, no clock waited on.
        using namespace std::chrono_literals;
        const long tick = ::sysconf(_SC_CLK_TCK);
        const auto t0 = ProgressWatch::Clock::time_point{};
        ProgressWatch watch(10, t0, 1000, 0);
        QCOMPARE(watch.look(t0 + 5s, 1000, 0), ProgressWatch::Verdict::Quiet);
        QCOMPARE(watch.look(t0 + 6s, 1500, 6 * tick), ProgressWatch::Verdict::Progress);
        QCOMPARE(watch.quietSeconds(t0 + 7s), 1);
        // Ten quiet seconds with little CPU: waiting (a slow disk), a new window, still quiet.
        QCOMPARE(watch.look(t0 + 16s, 1500, 7 * tick), ProgressWatch::Verdict::Waiting);
        QCOMPARE(watch.quietSeconds(t0 + 16s), 10);
        // On a loaded machine the CPU comes slowly: 4 s of it since the progress is not yet a loop...
        QCOMPARE(watch.look(t0 + 40s, 1500, 10 * tick), ProgressWatch::Verdict::Waiting);
        // ... the fifth second of CPU is, however long the wall clock took to give it.
        QCOMPARE(watch.look(t0 + 41s, 1500, 11 * tick), ProgressWatch::Verdict::Stalled);
        QCOMPARE(watch.quietSeconds(t0 + 41s), 35);
        // An answer is progress too; no limit: never stalled.
        watch.progressed(t0 + 42s, 11 * tick);
        QCOMPARE(watch.quietSeconds(t0 + 42s), 0);
        // Five CPU seconds (two threads) inside the first wall window: a loop too.
        QCOMPARE(watch.look(t0 + 45s, 1500, 16 * tick), ProgressWatch::Verdict::Stalled);
        ProgressWatch patient(0, t0, 0, 0);
        QCOMPARE(patient.look(t0 + 3600s, 0, 3600 * tick), ProgressWatch::Verdict::Quiet);
        QVERIFY(processCpuTicks(::getpid()) >= 0);
    }

    void memoryLimitEndsTheWorker()
    {
        if (!lockdownHasMemoryLimit())
            QSKIP("AddressSanitizer build: workers run without a memory limit (its shadow memory needs the address space)");
        WorkerLimits limits;
        limits.lockdown.memoryBytes = uint64_t(256) << 20;
        WorkerEnd memory = runInWorker(
            [] {
                std::vector<std::vector<char>> hog;
                for (int i = 0; i < 64; ++i)
                    hog.emplace_back(size_t(64) << 20, 'x'); // 4 GiB wanted
                return 0;
            },
            limits);
        QVERIFY(memory.outOfMemory);
        QVERIFY2(memory.maxrssKib < 300 * 1024, qPrintable(QString::number(memory.maxrssKib)));
    }

    // Not every failed allocation goes through operator new's handler: Qt's containers and our
    // decoder threads throw bad_alloc themselves. Uncaught on any thread, it is the memory limit,
    // not a crash with signal 6 (a RAR5 window size once ended that way).
    void badAllocOnAThreadIsTheMemoryLimit()
    {
        WorkerEnd end = runInWorker(
            [] {
                std::thread decoder([] { throw std::bad_alloc(); });
                decoder.join();
                return 0;
            },
            WorkerLimits{});
        QVERIFY(end.outOfMemory);
        QCOMPARE(end.signal, 0);
    }

    // libarchive 3.6.2 calls exit(1) when an allocation fails ("Fatal Internal Error in
    // libarchive: No memory"; a forged RAR5 name asked for 2 TB). In a worker that is the
    // memory limit, said as such, not an unexplained exit status 1.
    void aLibraryGivingUpIsTheMemoryLimit()
    {
        WorkerEnd end = runInWorker(
            [] {
                std::exit(1);
                return 0;
            },
            WorkerLimits{});
        QVERIFY(end.outOfMemory);
        QVERIFY(describeWorkerEnd(end, uint64_t(2) << 30, 30)->text.contains(QStringLiteral("out of memory")));
    }

    void killedMidCatIsACleanError()
    {
        ASC_REQUIRE_TOOL(QStringLiteral("bsdtar"));
        test::writeFile(dir_, QStringLiteral("src/big.bin"), test::seededBytes(64 << 20, 5));
        const QString tar = dir_.filePath(QStringLiteral("big.tar"));
        QCOMPARE(test::run(QStringLiteral("bsdtar"), {QStringLiteral("-cf"), tar, QStringLiteral("-C"), dir_.filePath(QStringLiteral("src")), QStringLiteral("big.bin")}).exitCode, 0);
        QProcess cli;
        cli.start(QStringLiteral(CLI_PATH), {QStringLiteral("cat"), tar + QStringLiteral("!/big.bin")});
        QVERIFY(cli.waitForStarted());
        // Nobody reads the output: the worker blocks on the full pipe. Find it and kill it.
        const pid_t worker = pid_t(test::firstChildOf(cli.processId()));
        QVERIFY(worker > 0);
        QVERIFY(cli.waitForReadyRead(10000));
        QCOMPARE(::kill(worker, SIGKILL), 0);
        cli.setReadChannel(QProcess::StandardOutput);
        while (cli.state() != QProcess::NotRunning) {
            cli.readAllStandardOutput();
            cli.waitForFinished(100);
        }
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QCOMPARE(cli.exitCode(), 1);
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QVERIFY2(err.contains(tar) && err.contains(QStringLiteral("signal 9")), qPrintable(err));
        // The window's words for the same end (one text, in worker_process).
        QVERIFY2(err.contains(QStringLiteral("the worker reading it crashed (signal 9: Killed)")), qPrintable(err));
    }
};

QTEST_GUILESS_MAIN(TestWorkerProcess)
#include "tst_worker_process.moc"
