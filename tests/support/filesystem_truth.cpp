// SPDX-License-Identifier: MIT
#include "filesystem_truth.h"

#include "test_files.h"

#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace asc::test {

QString differencesFromKernel(const QString &image, const QString &truthTsv, int &rows)
{
    rows = 0;
    QFile truthFile(truthTsv);
    if (!truthFile.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot read ") + truthTsv;
    auto ls = runCli({QStringLiteral("ls"), QStringLiteral("--json"), image});
    if (ls.exitCode != 0)
        return QStringLiteral("ls failed: ") + QString::fromUtf8(ls.err);
    QHash<QString, QJsonObject> listed;
    for (const QByteArray &line : ls.out.split('\n'))
        if (!line.isEmpty()) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            listed.insert(o[QStringLiteral("path")].toString(), o);
        }
    auto hashed = runCli({QStringLiteral("hash"), QStringLiteral("--algo"), QStringLiteral("sha256"), image});
    if (hashed.exitCode != 0)
        return QStringLiteral("hash failed: ") + QString::fromUtf8(hashed.err);
    QHash<QString, QString> sums;
    for (const QByteArray &line : hashed.out.split('\n'))
        if (line.size() > 66)
            sums.insert(QString::fromUtf8(line.mid(66)), QString::fromLatin1(line.left(64)));
    QStringList problems;
    for (const QByteArray &line : truthFile.readAll().split('\n')) {
        if (line.isEmpty())
            continue;
        const QList<QByteArray> f = line.split('\t');
        if (f.size() < 4)
            return QStringLiteral("a short row in ") + truthTsv;
        const QString path = QString::fromUtf8(f[1]);
        ++rows;
        if (!listed.contains(path)) {
            problems << QStringLiteral("not listed: ") + path;
            continue;
        }
        const QJsonObject e = listed.take(path);
        const QString type = e[QStringLiteral("type")].toString();
        if (f[0] == "file") {
            if (type != QLatin1String("file") || qint64(e[QStringLiteral("size")].toDouble()) != f[2].toLongLong() || sums.value(path) != QString::fromLatin1(f[3]))
                problems << QStringLiteral("file differs: ") + path;
        } else if (f[0] == "symlink") {
            if (e[QStringLiteral("target")].toString() != QString::fromUtf8(f[3]))
                problems << QStringLiteral("symlink target differs: ") + path;
        } else if (f[0] == "dir" && type != QLatin1String("dir")) {
            problems << QStringLiteral("not a folder: ") + path;
        }
    }
    for (auto it = listed.cbegin(); it != listed.cend(); ++it)
        problems << QStringLiteral("listed, but not in the kernel's view: ") + it.key();
    return problems.join(QLatin1Char('\n'));
}

} // namespace asc::test
