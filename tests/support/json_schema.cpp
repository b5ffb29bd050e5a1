// SPDX-License-Identifier: MIT
#include "json_schema.h"

#include <QJsonArray>
#include <QJsonObject>
#include <cmath>

namespace asc::test {

static bool hasType(const QJsonValue &value, const QString &type)
{
    if (type == QLatin1String("object"))
        return value.isObject();
    if (type == QLatin1String("array"))
        return value.isArray();
    if (type == QLatin1String("string"))
        return value.isString();
    if (type == QLatin1String("number"))
        return value.isDouble();
    if (type == QLatin1String("integer"))
        return value.isDouble() && std::floor(value.toDouble()) == value.toDouble();
    if (type == QLatin1String("boolean"))
        return value.isBool();
    if (type == QLatin1String("null"))
        return value.isNull();
    return false;
}

QStringList validateJson(const QJsonValue &value, const QJsonObject &schema, const QString &where)
{
    QStringList problems;
    if (schema.contains(QStringLiteral("type"))) {
        const QJsonValue type = schema.value(QStringLiteral("type"));
        bool ok = false;
        if (type.isArray()) {
            for (const auto &t : type.toArray())
                ok = ok || hasType(value, t.toString());
        } else {
            ok = hasType(value, type.toString());
        }
        if (!ok)
            return {where + QStringLiteral(": wrong type")};
    }
    if (schema.contains(QStringLiteral("enum")) && !schema.value(QStringLiteral("enum")).toArray().contains(value))
        problems << where + QStringLiteral(": not one of the allowed values");
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (const auto &required : schema.value(QStringLiteral("required")).toArray())
            if (!object.contains(required.toString()))
                problems << where + QStringLiteral(": missing ") + required.toString();
        const QJsonObject properties = schema.value(QStringLiteral("properties")).toObject();
        for (auto it = properties.begin(); it != properties.end(); ++it)
            if (object.contains(it.key()))
                problems << validateJson(object.value(it.key()), it.value().toObject(), where + QLatin1Char('.') + it.key());
    }
    if (value.isArray() && schema.contains(QStringLiteral("items"))) {
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i)
            problems << validateJson(array[i], schema.value(QStringLiteral("items")).toObject(), where + QStringLiteral("[%1]").arg(i));
    }
    return problems;
}

} // namespace asc::test
