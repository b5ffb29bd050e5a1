// SPDX-License-Identifier: MIT
#pragma once
// Removes a directory tree by bytes (QDir::removeRecursively cannot remove names that are not
// UTF-8, which extracted archives may hold). Never follows symlinks. Returns false when
// something could not be removed.

#include <QString>

namespace asc {

bool removeTree(const QString &path);

} // namespace asc
