// SPDX-License-Identifier: MIT
#include "test_files.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <sys/stat.h>
#include <QThread>
#include <QTest>

namespace asc::test {

QByteArray seededBytes(qsizetype size, quint32 seed)
{
    QByteArray bytes(size, Qt::Uninitialized);
    QRandomGenerator rng(seed);
    qsizetype i = 0;
    for (; i + 4 <= size; i += 4) {
        const quint32 v = rng.generate();
        memcpy(bytes.data() + i, &v, 4);
    }
    for (; i < size; ++i)
        bytes[i] = char(rng.generate());
    return bytes;
}

QByteArray seededWords(qsizetype size, quint32 seed)
{
    static const char *vocabulary[] = {"archive", "member", "block", "window", "seek", "point", "offset", "inflate", "tar", "index"};
    QByteArray text;
    text.reserve(size + 32);
    quint32 x = seed * 2654435761u + 1;
    while (text.size() < size) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        text += vocabulary[x % 10];
        text += (x >> 8) % 9 == 0 ? '\n' : ' ';
        if ((x >> 12) % 5 == 0)
            text += QByteArray::number(x % 1000003);
    }
    return text;
}

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

RunResult run(const QString &program, const QStringList &args, int timeoutMs, const QString &workingDir)
{
    QProcess process;
    if (!workingDir.isEmpty())
        process.setWorkingDirectory(workingDir);
    QTemporaryDir workDir;
    const QString workFile = workDir.filePath(QStringLiteral("work.json"));
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("ARCHIVESCOPE_WORK_FILE"), workFile);
    process.setProcessEnvironment(environment);
    process.setStandardInputFile(QProcess::nullDevice()); // nothing waits on a prompt
    process.start(program, args);
    RunResult result;
    if (!process.waitForStarted(10000)) {
        qWarning("cannot start %s", qPrintable(program));
        return result;
    }
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        qWarning("%s timed out", qPrintable(program));
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    QFile work(workFile);
    if (work.open(QIODevice::ReadOnly)) {
        const QJsonObject counters = QJsonDocument::fromJson(work.readAll()).object();
        result.work.rchar = qint64(counters.value(QStringLiteral("rchar")).toDouble(-1));
        result.work.syscr = qint64(counters.value(QStringLiteral("syscr")).toDouble(-1));
        result.work.wchar = qint64(counters.value(QStringLiteral("wchar")).toDouble(-1));
        result.work.maxrssKib = qint64(counters.value(QStringLiteral("maxrss_kib")).toDouble(-1));
    }
    return result;
}

RunResult runCli(const QStringList &args, int timeoutMs)
{
    return run(QStringLiteral(CLI_PATH), args, timeoutMs);
}

RunResult runCliWithPassword(const QStringList &args, const QByteArray &password)
{
    qputenv("ARCHIVESCOPE_PASSWORD", password);
    RunResult r = runCli(args);
    qunsetenv("ARCHIVESCOPE_PASSWORD");
    return r;
}

RunResult runCliOnTerminal(const QStringList &args, const QList<QByteArray> &answers)
{
    // Each answer goes when a prompt (a line about a password, ending in ':') has shown since the
    // last one: a path holding "password" (a temporary folder's name) is not a prompt of its own.
    const QString script = QStringLiteral(R"PY(
import os, pty, sys
answers = [a.encode() + b'\n' for a in sys.argv[1].split('\n') if a]
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
seen = b''
since = 0
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    seen += chunk
    if answers and b'password' in seen[since:] and seen[since:].rstrip().endswith(b':'):
        os.write(fd, answers.pop(0))
        since = len(seen)
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(seen)
sys.exit(os.WEXITSTATUS(status))
)PY");
    QByteArray lines;
    for (const QByteArray &answer : answers)
        lines += answer + '\n';
    return run(QStringLiteral("python3"), QStringList{QStringLiteral("-c"), script, QString::fromUtf8(lines), QStringLiteral(CLI_PATH)} + args);
}

bool isMountPoint(const QString &dir)
{
    struct stat here {
    }, above{};
    return ::stat(QFile::encodeName(dir).constData(), &here) == 0 && ::stat(QFile::encodeName(dir + QStringLiteral("/..")).constData(), &above) == 0 && here.st_dev != above.st_dev;
}

bool haveTool(const QString &name)
{
    return !QStandardPaths::findExecutable(name).isEmpty();
}

bool missingToolsAllowed()
{
    return qEnvironmentVariable("ARCHIVESCOPE_ALLOW_MISSING_TOOLS") == QLatin1String("1");
}

bool flipByte(const QString &path, qint64 at)
{
    QFile f(path);
    char c = 0;
    if (!f.open(QIODevice::ReadWrite) || !f.seek(at) || !f.getChar(&c) || !f.seek(at))
        return false;
    return f.putChar(char(c ^ 0x55));
}

bool flipByteAfter(const QString &path, const QByteArray &marker, qint64 distance)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const qsizetype found = f.readAll().indexOf(marker);
    return found >= 0 && flipByte(path, found + marker.size() + distance);
}

QByteArray sha256(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

QByteArray sha256File(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return hash.result().toHex();
}

qint64 firstChildOf(qint64 pid)
{
    for (int i = 0; i < 500; ++i) {
        QFile children(QStringLiteral("/proc/%1/task/%1/children").arg(pid));
        if (children.open(QIODevice::ReadOnly)) {
            const qint64 child = children.readAll().trimmed().split(' ').first().toLongLong();
            if (child > 0)
                return child;
        }
        QThread::msleep(20);
    }
    return 0;
}

QStringList waitForLines(const QString &path, int count)
{
    QStringList lines;
    for (int i = 0; i < 600 && lines.size() < count; ++i) {
        QTest::qWait(50);
        QFile f(path);
        if (f.open(QIODevice::ReadOnly))
            lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }
    return lines;
}

QByteArray processStat(const QString &pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    return stat.open(QIODevice::ReadOnly) ? stat.readAll() : QByteArray();
}

} // namespace asc::test
