// SPDX-License-Identifier: MIT
#include "machine_info.h"

#include "io/version.h"

#include <QFile>
#include <QFileInfo>
#include <QSysInfo>
#include <gnu/libc-version.h>
#include <sys/utsname.h>
#include <thread>

namespace asc {

namespace {

QString readCpuModel()
{
    QFile f(QStringLiteral("/proc/cpuinfo"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("model name"))
            return QString::fromUtf8(line.mid(line.indexOf(':') + 1).trimmed());
    }
    return {};
}

QByteArray readMounts()
{
    QFile mounts(QStringLiteral("/proc/self/mounts"));
    return mounts.open(QIODevice::ReadOnly) ? mounts.readAll() : QByteArray();
}

// What is read from files, once: a sandboxed worker reads it before it locks down.
struct FileFacts {
    QString cpu = readCpuModel();
    QString os = QSysInfo::prettyProductName();
    QByteArray mounts = readMounts();
    int cores = int(std::thread::hardware_concurrency()); // glibc reads /sys for it
};

const FileFacts &fileFacts()
{
    static const FileFacts facts;
    return facts;
}

} // namespace

void prepareMachineInfo()
{
    (void)fileFacts();
}

QString filesystemOf(const QString &path)
{
    // The longest mount point that prefixes the path's canonical form.
    const QString canonical = QFileInfo(path).canonicalFilePath();
    const QByteArray &mounts = fileFacts().mounts;
    if (canonical.isEmpty() || mounts.isEmpty())
        return QStringLiteral("unknown");
    QString best = QStringLiteral("unknown");
    qsizetype bestLength = -1;
    for (const QByteArray &line : mounts.split('\n')) {
        const QList<QByteArray> fields = line.split(' ');
        if (fields.size() < 3)
            continue;
        const QString point = QString::fromUtf8(fields[1]).replace(QStringLiteral("\\040"), QStringLiteral(" "));
        const bool under = canonical == point || canonical.startsWith(point.endsWith(QLatin1Char('/')) ? point : point + QLatin1Char('/'));
        if (under && point.size() > bestLength) {
            best = QString::fromUtf8(fields[2]);
            bestLength = point.size();
        }
    }
    return best;
}

QJsonObject machineInfo(const QString &targetPath)
{
    utsname u{};
    uname(&u);
    QJsonObject m;
    m[QStringLiteral("cpu")] = fileFacts().cpu;
    m[QStringLiteral("cores")] = fileFacts().cores;
    m[QStringLiteral("kernel")] = QStringLiteral("%1 %2").arg(QString::fromUtf8(u.sysname), QString::fromUtf8(u.release));
    m[QStringLiteral("arch")] = QString::fromUtf8(u.machine);
    m[QStringLiteral("os")] = fileFacts().os;
    m[QStringLiteral("hostname")] = QString::fromUtf8(u.nodename);
    m[QStringLiteral("filesystem")] = filesystemOf(targetPath);
    m[QStringLiteral("libc")] = QStringLiteral("glibc %1").arg(QString::fromUtf8(gnu_get_libc_version()));
    m[QStringLiteral("libraries")] = libraryVersions();
    return m;
}

} // namespace asc
