// SPDX-License-Identifier: MIT
#pragma once
// Writes a whole file atomically: a temporary file beside the target, fsync, rename over the
// target, fsync the directory. Readers see the old content or the new, never a mix; a failure
// leaves no temporary file behind.

#include "result.h"

#include <QByteArray>

namespace asc {

Result<void> writeFileAtomically(const QString &path, const QByteArray &bytes);

} // namespace asc
