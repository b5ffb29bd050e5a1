// SPDX-License-Identifier: MIT
#pragma once
// File > Enter Password…: asks for a password for the window's encrypted entries (zip's ZipCrypto
// and WinZip AES), naming the archive. It is kept in this process's memory until the application
// quits — never in settings, recent files or logs — and sent with each request to the worker.

#include "io/error.h"

#include <QString>
#include <QWidget>

namespace asc::ui {

// Asks (password echo off); true when one was entered and is now tried with the others.
bool askArchivePassword(QWidget *parent, const QString &archive);
// The same for something that could not be read for want of its password (`why`: a LUKS volume
// opened or expanded), naming it by its SPEC; says so when the passwords given were wrong.
bool askPasswordFor(QWidget *parent, const QString &spec, const Error &why);

} // namespace asc::ui
