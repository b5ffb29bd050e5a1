// SPDX-License-Identifier: MIT
#pragma once
// The tree the archive tests pack with real tools: long names, UTF-8, symlinks, hardlinks, empty
// directories, a 5 MiB random file, mtimes before 1970. Built fresh in a temporary directory.

#include <QByteArray>
#include <QMap>
#include <QString>

namespace asc::test {

struct TreeItem {
    QString type; // "file", "dir", "symlink", "hardlink"
    QByteArray content; // files
    QByteArray target; // symlink text, or the path a hardlink shares its inode with
    int mode = 0644;
    qint64 mtime = 0;
};

struct ArchiveTree {
    QString root; // directory holding the tree's top folder
    QString top = QStringLiteral("tree"); // the single top-level folder
    QMap<QByteArray, TreeItem> items; // path relative to root ("tree/a.txt")
};

// Creates the tree under `root`.
ArchiveTree makeArchiveTree(const QString &root);

} // namespace asc::test
