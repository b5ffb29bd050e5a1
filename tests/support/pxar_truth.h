// SPDX-License-Identifier: MIT
#pragma once
// Formats pxar entries exactly as the reference fixtures' truth files do (shared/fixtures/pxar
// README: escaping, columns, extras), so listings can be compared line by line.

#include "formats/pxar/pxar_entry.h"
#include "formats/pxar/pxar_format.h"

#include <QByteArray>
#include <QStringList>

namespace asc::test {

QByteArray truthEscape(const QByteArray &bytes);
QByteArray listLine(const pxar::PxarEntry &e);
QByteArray offsetsLine(const pxar::PxarEntry &e);
// Non-comment lines of a truth file.
QList<QByteArray> truthLines(const QString &path, QList<QByteArray> *comments = nullptr);

} // namespace asc::test
