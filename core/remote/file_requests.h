// SPDX-License-Identifier: MIT
// What a worker that may not open or create anything (LockdownLimits::mayOpenFiles false) asks its
// parent for (the parent's answers: parent_answers.h; what it grants: worker_grants.h): read-only descriptors of the files the policy allows
// (OpenFile), scratch files in the folder the user named for the bench's copies (CreateScratch),
// and atomic writes of the files the user named for results (WriteExport). Descriptors come back with SCM_RIGHTS. Used by
// archivescope-worker with the GUI's WorkerChannel, and by the CLI's forked worker with its parent.
#pragma once

#include "remote/facts.h"
#include "remote/wire.h"
#include "remote/worker_grants.h"

#include <QStringList>
#include <functional>

namespace asc {

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

// Before a process stops being able to open files: what the C library loads from files on first
// use — the converters for `nameCharset` and the common legacy charsets, the local time zone —
// is loaded now and kept.
void prepareToOpenNothing(const QByteArray &nameCharset);

} // namespace asc
