// SPDX-License-Identifier: MIT
#pragma once
// How `ls` prints an entry: a JSON Lines object (CLI.md) or a human line like `bsdtar -tv`.

#include "vfs/entry.h"

#include <QByteArray>

namespace asc::cli {

// Appends one JSON object and '\n' to `out`. `path` is the path to print (relative to the SPEC).
void appendEntryJson(QByteArray &out, const Entry &entry, const QByteArray &path);
void appendEntryText(QByteArray &out, const Entry &entry, const QByteArray &path);
// Appends a JSON string literal (with quotes) of UTF-8 text.
void appendJsonString(QByteArray &out, const QByteArray &utf8);

} // namespace asc::cli
