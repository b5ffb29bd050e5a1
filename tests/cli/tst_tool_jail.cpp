// SPDX-License-Identifier: MIT
// archivescope-tool-jail (sandbox/tool_run.h): the program it starts reads what it was granted and
// nothing else, writes no file, starts nothing (neither a child nor another program), and is
// stopped at its CPU limit; its output arrives framed with how it ended (sandbox/tool_stream.h).

#include "sandbox/landlock.h"
#include "sandbox/tool_stream.h"
#include "test_files.h"

#include <QFile>
#include <QProcess>
#include <QTest>
#include <csignal>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace asc;

class TestToolJail : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    struct Ran {
        QByteArray out;
        bool succeeded = false;
        int status = -1;
        QByteArray messages;
    };

    // Runs PROGRAM ARGS in the jail, granting `readable`; its output read through ToolStream.
    static Ran jailed(const QStringList &command, const QStringList &readable = {}, int cpu = 60)
    {
        QStringList args{QStringLiteral("--memory"), QString::number(qulonglong(1) << 31), QStringLiteral("--cpu"), QString::number(cpu)};
        for (const QString &path : readable)
            args << QStringLiteral("--read") << path;
        args << QStringLiteral("--") << command;
        int out[2];
        if (::pipe2(out, O_CLOEXEC) != 0)
            return {};
        QList<QByteArray> words{QFile::encodeName(qEnvironmentVariable("ARCHIVESCOPE_TOOL_JAIL"))};
        for (const QString &arg : args)
            words << QFile::encodeName(arg);
        std::vector<char *> argv;
        for (QByteArray &word : words)
            argv.push_back(word.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        pid_t pid = -1;
        const int spawned = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        ::close(out[1]);
        Ran ran;
        if (spawned != 0) {
            ::close(out[0]);
            return ran;
        }
        ToolStream stream(out[0], QStringLiteral("jail"));
        char buffer[65536];
        for (;;) {
            auto got = stream.read(buffer);
            if (!got || *got == 0)
                break;
            if (ran.out.size() < (1 << 20))
                ran.out.append(buffer, qsizetype(*got));
        }
        int status = 0;
        ::waitpid(pid, &status, 0);
        ran.succeeded = stream.succeeded();
        ran.status = stream.status();
        ran.messages = stream.messages();
        return ran;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(!qEnvironmentVariable("ARCHIVESCOPE_TOOL_JAIL").isEmpty());
        QVERIFY2(landlockVersion() > 0, "this kernel has no Landlock: the jail cannot restrict files");
        test::writeFile(dir_, QStringLiteral("granted.txt"), "granted bytes\n");
        test::writeFile(dir_, QStringLiteral("secret.txt"), "not for the tool\n");
    }

    void readsWhatIsGrantedOnly()
    {
        const QString granted = dir_.filePath(QStringLiteral("granted.txt"));
        const Ran ok = jailed({QStringLiteral("/usr/bin/cat"), granted}, {granted});
        QVERIFY2(ok.succeeded, ok.messages.constData());
        QCOMPARE(ok.out, QByteArray("granted bytes\n"));

        const Ran refused = jailed({QStringLiteral("/usr/bin/cat"), dir_.filePath(QStringLiteral("secret.txt"))}, {granted});
        QVERIFY(!refused.succeeded);
        QCOMPARE(refused.out, QByteArray());
        QVERIFY2(refused.messages.contains("Permission denied"), refused.messages.constData());
        const Ran home = jailed({QStringLiteral("/usr/bin/cat"), QStringLiteral("/etc/passwd")}, {granted});
        QVERIFY(!home.succeeded);
        QCOMPARE(home.out, QByteArray());
    }

    void writesNothing()
    {
        const QString granted = dir_.filePath(QStringLiteral("granted.txt"));
        const QString copy = dir_.filePath(QStringLiteral("copy.txt"));
        const Ran ran = jailed({QStringLiteral("/usr/bin/cp"), granted, copy}, {granted, dir_.path()});
        QVERIFY(!ran.succeeded);
        QVERIFY(!QFile::exists(copy));
    }

    void startsNothing()
    {
        const Ran child = jailed({QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("/usr/bin/true; echo after")});
        QVERIFY(!child.messages.isEmpty());
        QVERIFY2(child.messages.contains("fork"), child.messages.constData());
        const Ran other = jailed({QStringLiteral("/bin/sh"), QStringLiteral("-c"), QStringLiteral("exec /usr/bin/true")});
        QVERIFY(!other.succeeded);
        QVERIFY2(other.messages.contains("Permission denied"), other.messages.constData());
    }

    void stoppedAtItsCpuLimit()
    {
        const Ran ran = jailed({QStringLiteral("/usr/bin/sha256sum"), QStringLiteral("/dev/urandom")}, {}, 1);
        QVERIFY(!ran.succeeded);
        QVERIFY2(WIFSIGNALED(ran.status) && (WTERMSIG(ran.status) == SIGXCPU || WTERMSIG(ran.status) == SIGKILL), qPrintable(QString::number(ran.status)));
    }
};

QTEST_GUILESS_MAIN(TestToolJail)
#include "tst_tool_jail.moc"
