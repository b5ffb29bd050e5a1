// SPDX-License-Identifier: MIT
#pragma once
// Writes a whole file atomically: a temporary file beside the target, fsync, rename over the
// target, fsync the directory. Readers see the old content or the new, never a mix; a failure
// leaves no temporary file behind.

#include "result.h"

#include <QByteArray>
#include <functional>

namespace asc {

Result<void> writeFileAtomically(const QString &path, const QByteArray &bytes);

// The same in this process whatever the writer; a cache file (that is checked when read, and
// may be lost) skips the two fsyncs.
enum class Durability { Durable,
                        Cache };
Result<void> writeFileHere(const QString &path, const QByteArray &bytes, Durability durability);

// Where writeFileAtomically writes in a process that may not write files (a worker: its parent,
// which writes only the files the user named). Process-wide; unset: written here.
using AtomicWriter = std::function<Result<void>(const QString &path, const QByteArray &bytes)>;
void setAtomicWriter(AtomicWriter writer);
bool writerIsParent(); // a writer is set

} // namespace asc
