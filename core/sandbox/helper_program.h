// SPDX-License-Identifier: MIT
#pragma once
// Where a helper program of ours is (the worker, the chart renderer, the LUKS key opener).

#include <QString>

namespace asc {

// $`overrideVariable`, else `name` beside this program (a build tree), else in the installed
// libexec folder (bin/../libexec/archivescope).
QString helperProgram(const QString &name, const char *overrideVariable);

} // namespace asc
