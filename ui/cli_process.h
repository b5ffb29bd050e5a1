// SPDX-License-Identifier: MIT
#pragma once
// Starts archivescope-cli for the window (File > Test, Checksums, Mount…) with the passwords the
// window was given: written to the command's standard input, read there with
// `--password-file /dev/stdin` — never on its command line or in its environment. Without any,
// its input is empty, so it never asks on a terminal.

#include <QProcess>
#include <QStringList>

namespace asc::ui {

void startCli(QProcess &process, QStringList arguments);

} // namespace asc::ui
