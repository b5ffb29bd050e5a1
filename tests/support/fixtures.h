// SPDX-License-Identifier: MIT
#pragma once
// The reference fixtures copied from shared/fixtures into tests/data: their index and truth files.
// Compressed ones (.xz) are decompressed into a temporary directory on first use.

#include <QByteArrayList>
#include <QJsonObject>
#include <QString>
#include <QTemporaryDir>
#include <vector>

namespace asc::test {

struct ImageFixture {
    QString name; // file name as listed (without .xz)
    QString format; // qcow2, raw, vmdk, vdi, vpc, vhdx
    QString path; // readable path (decompressed when needed)
    QByteArray virtualSha256;
    quint64 virtualSize = 0;
    QString expect; // "read" or "refuse"
    QJsonObject truth;
};

// Every image of tests/data/images/INDEX.tsv; `scratch` receives decompressed copies.
std::vector<ImageFixture> imageFixtures(const QTemporaryDir &scratch);
QString dataPath(const QString &relative);
// tests/data/disks/PACKED (an .xz) decompressed into `scratch` as NAME: its path, or "" on failure.
QString unpackDisk(const QTemporaryDir &scratch, const QString &packed, const QString &name);
// The rows of a truth file of tests/data/disks (tab-separated).
QList<QByteArrayList> diskTruth(const QString &name);

} // namespace asc::test
