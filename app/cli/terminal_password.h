// SPDX-License-Identifier: MIT
#pragma once
// The CLI's password question: on its terminal (/dev/tty, echo off), when standard input is one
// and neither --password-file nor ARCHIVESCOPE_PASSWORD gave a password. Scripts (stdin not a
// terminal) are never asked: they get the error saying a password is needed.

#include <QByteArray>
#include <QString>
#include <optional>

namespace asc::cli {

// Installs the question (setPasswordAsker) when standard input is a terminal.
void askOnTerminalWhenNeeded();
// Asks once on /dev/tty; nullopt when there is none or the answer is empty (declined).
std::optional<QByteArray> askOnTerminal(const QString &what, bool wrong);

} // namespace asc::cli
