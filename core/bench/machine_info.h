// SPDX-License-Identifier: MIT
#pragma once
// What a result file records about where it was measured: CPU, cores, kernel, the target's
// filesystem, library versions. Blocking (reads /proc), cheap.

#include <QJsonObject>

namespace asc {

QJsonObject machineInfo(const QString &targetPath);
// Reads now what machineInfo reads from files (the CPU, the OS, the mount table) and keeps it:
// before a process that benchmarks locks itself down.
void prepareMachineInfo();
// The filesystem type holding `path` ("ext4", "tmpfs", ...), or "unknown".
QString filesystemOf(const QString &path);

} // namespace asc
