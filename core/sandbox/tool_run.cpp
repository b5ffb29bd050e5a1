// SPDX-License-Identifier: MIT
#include "tool_run.h"

#include "fd_io.h"
#include "helper_program.h"
#include "spawn.h"

#include <QDataStream>
#include <QFile>
#include <QStandardPaths>
#include <cerrno>
#include <fcntl.h>
#include <mutex>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace asc {

QByteArray ToolRun::encode() const
{
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out << quint8(tool) << quint8(operation) << archive << member << password;
    return bytes;
}

std::optional<ToolRun> ToolRun::decode(const QByteArray &bytes)
{
    QDataStream in(bytes);
    quint8 tool = 0, operation = 0;
    ToolRun run;
    in >> tool >> operation >> run.archive >> run.member >> run.password;
    if (in.status() != QDataStream::Ok || tool != quint8(Tool::SevenZip) || operation < quint8(ToolOperation::List) || operation > quint8(ToolOperation::ExtractOne))
        return std::nullopt;
    run.tool = Tool(tool);
    run.operation = ToolOperation(operation);
    return run;
}

void ToolRun::wipe()
{
    if (!password.isEmpty() && password.isDetached())
        ::explicit_bzero(password.data(), size_t(password.size()));
    password.clear();
}

QString toolProgram(Tool tool)
{
    switch (tool) {
    case Tool::SevenZip:
        return QStandardPaths::findExecutable(QStringLiteral("7zz"));
    }
    return {};
}

QString toolPackage(Tool tool)
{
    switch (tool) {
    case Tool::SevenZip:
        return QStringLiteral("7zip");
    }
    return {};
}

QStringList toolArguments(const ToolRun &run)
{
    const QString archive = QFile::decodeName(run.archive);
    // -bd: no progress; -sccUTF-8: names in UTF-8; -spd: names are names, not wildcards;
    // -y: never a question on stdin (the password is the only thing it reads there).
    switch (run.operation) {
    case ToolOperation::List:
        return {QStringLiteral("l"), QStringLiteral("-slt"), QStringLiteral("-bd"), QStringLiteral("-sccUTF-8"), QStringLiteral("--"), archive};
    case ToolOperation::ExtractAll:
        return {QStringLiteral("x"), QStringLiteral("-so"), QStringLiteral("-bd"), QStringLiteral("-sccUTF-8"),
                QStringLiteral("-spd"), QStringLiteral("-y"), QStringLiteral("--"), archive};
    case ToolOperation::ExtractOne:
        return {QStringLiteral("x"), QStringLiteral("-so"), QStringLiteral("-bd"), QStringLiteral("-sccUTF-8"),
                QStringLiteral("-spd"), QStringLiteral("-y"), QStringLiteral("--"), archive, QString::fromUtf8(run.member)};
    }
    return {};
}

uint64_t toolCpuSeconds(uint64_t bytes)
{
    return 60 + bytes / (uint64_t(4) << 20);
}

namespace {

struct Pipe {
    int ends[2] = {-1, -1};
    ~Pipe()
    {
        for (const int fd : ends)
            if (fd >= 0)
                ::close(fd);
    }
    int take(int which)
    {
        const int fd = ends[which];
        ends[which] = -1;
        return fd;
    }
};

std::mutex starterMutex;
ToolStarter &starter()
{
    static ToolStarter chosen;
    return chosen;
}

} // namespace

Result<int> startJailedTool(const ToolRun &run, const QList<QByteArray> &readable)
{
    const QString what = QFile::decodeName(run.archive);
    const QString program = toolProgram(run.tool);
    if (program.isEmpty())
        return Error::make(ErrorKind::Unsupported, what,
                           QStringLiteral("needs 7-Zip's 7zz to be read, and it is not installed (package %1)").arg(toolPackage(run.tool)));
    const QString jail = helperProgram(QStringLiteral("archivescope-tool-jail"), "ARCHIVESCOPE_TOOL_JAIL");
    uint64_t bytes = 0;
    for (const QByteArray &path : readable) {
        struct stat st {};
        if (::stat(path.constData(), &st) == 0)
            bytes += uint64_t(st.st_size);
    }
    QList<QByteArray> args{QFile::encodeName(jail), "--memory", QByteArray::number(kToolMemoryBytes), "--cpu",
                           QByteArray::number(toolCpuSeconds(bytes))};
    for (const QByteArray &path : readable)
        args << "--read" << path;
    args << "--" << QFile::encodeName(program);
    for (const QString &arg : toolArguments(run))
        args << QFile::encodeName(arg);
    std::vector<const char *> argv;
    for (const QByteArray &arg : args)
        argv.push_back(arg.constData());
    argv.push_back(nullptr);

    // The password waits in the tool's stdin (a pipe holds 64 KiB: it is written before the start).
    Pipe input, output;
    if (::pipe2(input.ends, O_CLOEXEC) != 0 || ::pipe2(output.ends, O_CLOEXEC) != 0)
        return Error::system(what, QStringLiteral("make the tool's pipes"), errno);
    if (!run.password.isEmpty()) {
        QByteArray line = run.password + '\n';
        const bool written = writeAll(input.ends[1], line.constData(), size_t(line.size()));
        ::explicit_bzero(line.data(), size_t(line.size()));
        if (!written)
            return Error::system(what, QStringLiteral("give the tool its password"), errno);
    }
    ::close(input.take(1));
    const int quiet = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    const pid_t pid = spawnHelper(argv[0], argv, {{input.ends[0], 0}, {output.ends[1], 1}, {quiet, 2}});
    if (quiet >= 0)
        ::close(quiet);
    if (pid < 0)
        return Error::system(jail, QStringLiteral("start the tool jail"), int(-pid));
    // Nobody else waits for the jail: it ends when its tool does, or when its reader goes.
    std::thread([pid] {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }).detach();
    return output.take(0);
}

void setToolStarter(ToolStarter chosen)
{
    const std::lock_guard lock(starterMutex);
    starter() = std::move(chosen);
}

Result<int> startTool(const ToolRun &run)
{
    ToolStarter chosen;
    {
        const std::lock_guard lock(starterMutex);
        chosen = starter();
    }
    if (chosen)
        return chosen(run);
    return startJailedTool(run, {run.archive});
}

} // namespace asc
