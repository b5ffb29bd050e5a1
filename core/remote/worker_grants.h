// SPDX-License-Identifier: MIT
#pragma once
// The parent's policy for its worker's files: what each opened file grants (the file, what its
// format reads beside it, the parts of its set) and the descriptors it hands out under it.

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace asc {

// What the parent lets its worker have.
struct WorkerGrants {
    QStringList files; // the files opened: each, and what lies in its folder or below, read-only
    QStringList approved; // backing files the user allowed
    QString scratchDir; // where scratch files may be made (bench --output-dir); empty: nowhere
    QStringList exports; // files the parent writes for it (bench --json/--csv)
};

// The policy: `path` may be read when one of `files` grants it (grantOf), is one of `approved`
// (backing files the user allowed), or backing files may be followed anywhere (--allow-backing).
// Returns a read-only descriptor of a regular file or block device, or -errno.
int openForWorker(const QStringList &files, const QByteArray &path, const QStringList &approved = {});

// What one opened file grants its worker, exactly what its format reads beside it
// (Format::beside): the file; a named companion (a split pxar's .ppxar beside the .mpxar); the
// parts of a split set (open/split_set.h); for a format that reads its folder (a qcow2's backing
// file, a VMDK's extents) what lies in that folder or below, but at the root only the files
// beside it. An archive, an ISO or a device grants nothing more.
struct FileGrant {
    enum class Siblings { None,
                          Folder };
    QByteArray file; // canonical; empty: it does not exist
    QByteArray payload; // canonical
    QList<QByteArray> parts; // the other parts of a split set it belongs to, canonical
    Siblings siblings = Siblings::None;
};
FileGrant grantOf(const QString &file);
bool grantCovers(const FileGrant &grant, const QByteArray &asked);

// The canonical form of a path as bytes (names need not be UTF-8); empty when it does not exist.
QByteArray canonicalPath(const QByteArray &path);
// The same file as the user named it: compared as absolute, cleaned paths.
bool sameFile(const QString &a, const QString &b);

} // namespace asc
