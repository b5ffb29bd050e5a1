// SPDX-License-Identifier: MIT
#include "test_files.h"

#include <QCryptographicHash>
#include <QFile>
#include <QRandomGenerator>
#include <QStandardPaths>
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

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
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
    return result;
}

RunResult runCli(const QStringList &args, int timeoutMs)
{
    return run(QStringLiteral(CLI_PATH), args, timeoutMs);
}

bool haveTool(const QString &name)
{
    return !QStandardPaths::findExecutable(name).isEmpty();
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

} // namespace asc::test
