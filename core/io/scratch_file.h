// SPDX-License-Identifier: MIT
#pragma once
// A file written only to be measured (the bench's copy strategies): created in a folder, open for
// writing, and gone once closed — no name is left behind on success, failure or a crash.

#include "io/result.h"

#include <QString>
#include <functional>

namespace asc {

// A scratch file in `dir`: its descriptor. Made here, or by the scratch-file maker.
Result<int> createScratchFile(const QString &dir);

// Made here: an unnamed file (O_TMPFILE) where the file system has them, else one created and
// unlinked at once. A descriptor, or -errno.
int makeScratchFile(const QString &dir);

// Process-wide: where scratch files come from in a worker that may not create files (its parent,
// for the folder the user named). Returns a descriptor or -errno; unset: made here.
using ScratchFileMaker = std::function<int(const QString &dir)>;
void setScratchFileMaker(ScratchFileMaker maker);

} // namespace asc
