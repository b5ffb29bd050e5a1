// SPDX-License-Identifier: MIT
#pragma once
// Landlock (Linux 5.13+): what files the calling process, and every program it starts, may reach
// from now on. Everything not granted here is refused with EACCES: reading, executing, writing,
// making and removing files; on kernels that know them (ABI 4 and 6), TCP and signals or abstract
// sockets outside the process too. Used by the external tools' jail (app/tool_jail).

#include "io/result.h"

#include <QByteArray>
#include <QList>

namespace asc {

struct LandlockPaths {
    QList<QByteArray> readable; // files or folders (and all below): read, folders listed
    QList<QByteArray> executable; // files that may be started (and read)
    QList<QByteArray> writable; // folders where files may be made, written and removed
};

// True once restricted; false when the kernel has no Landlock (nothing changed). A path that does
// not exist is skipped (a system folder one distribution lacks).
Result<bool> restrictFilesystem(const LandlockPaths &paths);
// The Landlock ABI version of this kernel, 0 without it.
int landlockVersion();

} // namespace asc
