// SPDX-License-Identifier: MIT
#include "fixtures.h"

#include "test_files.h"

#include <QFile>
#include <QJsonDocument>

namespace asc::test {

QString dataPath(const QString &relative)
{
    return QStringLiteral(TEST_DATA_DIR "/") + relative;
}

std::vector<ImageFixture> imageFixtures(const QTemporaryDir &scratch)
{
    std::vector<ImageFixture> all;
    QFile index(dataPath(QStringLiteral("images/INDEX.tsv")));
    if (!index.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(index.fileName()));
    for (const QByteArray &line : index.readAll().split('\n')) {
        const QList<QByteArray> f = line.split('\t');
        if (f.size() < 6)
            continue;
        ImageFixture fx;
        const QString stored = QString::fromUtf8(f[0]);
        fx.format = QString::fromUtf8(f[1]);
        fx.virtualSize = f[3].toULongLong();
        fx.virtualSha256 = f[4];
        fx.expect = QString::fromUtf8(f[5]);
        QFile truth(dataPath(QStringLiteral("images/") + stored + QStringLiteral(".truth.json")));
        if (truth.open(QIODevice::ReadOnly))
            fx.truth = QJsonDocument::fromJson(truth.readAll()).object();
        if (stored.endsWith(QLatin1String(".xz"))) {
            fx.name = stored.chopped(3);
            fx.path = scratch.filePath(fx.name);
            if (!QFile::exists(fx.path)) {
                auto r = run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("xz -dc \"$1\" > \"$2\""), QStringLiteral("sh"),
                                                         dataPath(QStringLiteral("images/") + stored), fx.path});
                if (r.exitCode != 0)
                    qFatal("cannot decompress %s", qPrintable(stored));
            }
        } else {
            fx.name = stored;
            fx.path = dataPath(QStringLiteral("images/") + stored);
        }
        all.push_back(fx);
    }
    return all;
}

QString unpackDisk(const QTemporaryDir &scratch, const QString &packed, const QString &name)
{
    const QString out = scratch.filePath(name);
    auto r = run(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("xz -dc \"$0\" > \"$1\""), dataPath(QStringLiteral("disks/") + packed), out});
    return r.exitCode == 0 ? out : QString();
}

QList<QByteArrayList> diskTruth(const QString &name)
{
    QFile f(dataPath(QStringLiteral("disks/") + name));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QList<QByteArrayList> rows;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (!line.isEmpty())
            rows << line.split('\t');
    return rows;
}

} // namespace asc::test
