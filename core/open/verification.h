// SPDX-License-Identifier: MIT
#pragma once
// `test SPEC`: every entry below a container read to its end — so each CRC, checksum and
// decoder end the format carries is checked by its reader — and each entry that opens as a
// container (a partition, a nested archive, a filesystem) tested the same way, to `depth`
// levels. Blocks; problems are values, reported as they are found; never stops at the first.

#include "vfs/container.h"

#include <functional>

namespace asc {

struct TestProblem {
    QString spec; // the entry (or container) that failed, as a SPEC
    Error error;
};

struct TestReport {
    uint64_t entries = 0; // entries looked at
    uint64_t files = 0; // files read to their end
    uint64_t bytes = 0; // bytes read from them
    uint64_t containers = 0; // containers walked (the top one included)
    uint64_t problems = 0;
};

// `spec` names `container` (what problems are named under); `selection` limits the walk to an
// entry or a folder ("" = everything).
TestReport testContainer(const ContainerPtr &container, const QString &spec, const QByteArray &selection, int depth,
                         const std::function<void(const TestProblem &)> &onProblem);

} // namespace asc
