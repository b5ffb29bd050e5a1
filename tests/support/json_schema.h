// SPDX-License-Identifier: MIT
#pragma once
// A small JSON Schema checker for the subset our schemas use: type (incl. lists and "integer"),
// required, properties, items, enum. Returns the problems found (empty: valid).

#include <QJsonValue>
#include <QStringList>

namespace asc::test {

QStringList validateJson(const QJsonValue &value, const QJsonObject &schema, const QString &where = QStringLiteral("$"));

} // namespace asc::test
