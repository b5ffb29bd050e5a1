// SPDX-License-Identifier: MIT
// Files for a worker that may not open any (LockdownLimits::mayOpenFiles false): it asks its
// parent for each path (wire OpenFile), the parent opens read-only what the policy allows and
// passes the descriptor back (FileAnswer with SCM_RIGHTS). Used by archivescope-worker with the
// GUI's WorkerChannel, and by the CLI's forked worker with its parent.
#pragma once

#include "open/worker/wire.h"

#include <QStringList>
#include <functional>

namespace asc {

// The policy: `path` may be read when it is one of `files` or lies in the folder of one of them
// (or below: a VMDK's extents, a pxar's payload, a qcow2 backing file beside it), is one of
// `approved` (backing files the user allowed), or backing files may be followed anywhere
// (--allow-backing). Returns a read-only descriptor of a regular file or block device, or -errno.
int openForWorker(const QStringList &files, const QByteArray &path, const QStringList &approved = {});

// In the worker: asks the parent on `fd` for `path`; a descriptor or -errno. Frames other than
// the answer that arrive meanwhile go to `other` (a stop request). Ends the process when the
// parent is gone.
int requestFile(int fd, const QByteArray &path, const std::function<void(wire::Kind)> &other = {});

// In the parent: answers `request` (an OpenFile the worker sent on `fd`) under the policy above;
// false when the answer could not be sent.
bool answerFileRequest(int fd, wire::Received &request, const QStringList &files, const QStringList &approved = {});
// ... the same for the next request read from `fd` (false once the worker has gone).
bool answerFileRequest(int fd, const QStringList &files);

// Before a process stops being able to open files: what the C library loads from files on first
// use — the converters for `nameCharset` and the common legacy charsets, the local time zone —
// is loaded now and kept.
void prepareToOpenNothing(const QByteArray &nameCharset);

} // namespace asc
