// SPDX-License-Identifier: MIT
// What a worker that may not open or create anything (LockdownLimits::mayOpenFiles false) asks its
// parent for, and what the parent grants: read-only descriptors of the files the policy allows
// (OpenFile), scratch files in the folder the user named for the bench's copies (CreateScratch),
// and atomic writes of the files the user named for results (WriteExport). Descriptors come back with SCM_RIGHTS. Used by
// archivescope-worker with the GUI's WorkerChannel, and by the CLI's forked worker with its parent.
#pragma once

#include "remote/facts.h"
#include "remote/wire.h"

#include <QStringList>
#include <functional>

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

// In the worker: from now on, files, scratch files and exports are asked of the parent on
// `fd` (the process-wide hooks of io/), the answers read here. Frames other than an answer that
// arrive meanwhile go to `other`. Asking ends the process when the parent is gone. For a worker
// whose socket nothing else reads (the CLI's).
void askParentOn(int fd, const std::function<void(wire::Kind)> &other = {});
// ... the same for a serving worker: asked through `reader`, its one reader of the socket.
class WorkerInbox;
void askParentThrough(WorkerInbox &reader, int fd);
// ... one file: a descriptor or -errno.
int requestFile(int fd, const QByteArray &path, const std::function<void(wire::Kind)> &other = {});

// In the parent: whether `kind` is one of the worker's requests above.
bool isWorkerRequest(wire::Kind kind);
// Answers `request` (read from `fd`) under `grants`; false when the answer could not be sent.
bool answerWorkerRequest(int fd, wire::Received &request, const WorkerGrants &grants);
// ... the same for the next request read from `fd` (false once the worker has gone).
bool answerWorkerRequest(int fd, const WorkerGrants &grants);

// Before a process stops being able to open files: what the C library loads from files on first
// use — the converters for `nameCharset` and the common legacy charsets, the local time zone —
// is loaded now and kept.
void prepareToOpenNothing(const QByteArray &nameCharset);

} // namespace asc
