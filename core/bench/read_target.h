// SPDX-License-Identifier: MIT
#pragma once
// A SPEC opened for benchmarking: its bytes, and when it is a plain file its path (strategies that
// use system calls directly need it); `cachePath` is the real file underneath for cold-cache runs.

#include "read_strategy.h"

namespace asc {

struct OpenedTarget {
    ReadTarget target;
    QString cachePath;
};

Result<OpenedTarget> openReadTarget(const QString &spec);

} // namespace asc
