// SPDX-License-Identifier: MIT
#pragma once
// What a walking command (hash, test) walks for a resolved SPEC: a folder inside a container is
// its container with the folder selected; an archive, image or filesystem is its own container;
// a file that holds none is its container with only that entry selected.

#include "open/spec.h"

namespace asc::cli {

struct WalkTarget {
    ContainerPtr container;
    QByteArray selection; // "" = everything
    QString under; // the SPEC of `container`, what entries are named under
    bool singleFile = false; // the SPEC is one file that holds no container
};

Result<WalkTarget> walkTargetOf(const Location &location, const QString &spec);

} // namespace asc::cli
