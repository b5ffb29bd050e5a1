// SPDX-License-Identifier: MIT
// `info SPEC [--json]`: the format of SPEC and its metadata.

#include "argument_parser.h"
#include "cli_output.h"
#include "commands.h"
#include "open/inspection.h"
#include "vfs/problems.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace asc::cli {

static void printValue(const QString &key, const QJsonValue &value, int indent)
{
    const QString pad(indent * 2, QLatin1Char(' '));
    if (value.isObject()) {
        printLine(pad + key + QLatin1Char(':'));
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            printValue(it.key(), it.value(), indent + 1);
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        bool scalars = true;
        for (const auto &item : array)
            scalars = scalars && !item.isObject() && !item.isArray();
        if (scalars) {
            QStringList items;
            for (const auto &item : array)
                items << item.toVariant().toString();
            printLine(pad + key + QStringLiteral(": ") + items.join(QStringLiteral(", ")));
        } else {
            printLine(pad + key + QLatin1Char(':'));
            for (qsizetype i = 0; i < array.size(); ++i)
                printValue(QStringLiteral("[%1]").arg(i), array[i], indent + 1);
        }
    } else {
        QString text = value.toVariant().toString();
        if (value.isDouble() && value.toDouble() == double(qint64(value.toDouble())))
            text = QString::number(qint64(value.toDouble()));
        printLine(pad + key + QStringLiteral(": ") + text);
    }
}

int runInfo(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("info"), QStringLiteral("Show the format of SPEC and its metadata."));
    p.addPositional(QStringLiteral("SPEC"), QStringLiteral("a file, an archive, a disk image, or something inside one"));
    p.parser().addOption({QStringLiteral("json"), QStringLiteral("One JSON object.")});
    if (auto stop = p.parse(args, 1))
        return *stop;
    const QString spec = p.parser().positionalArguments().first();
    auto inspected = inspect(spec);
    if (!inspected)
        return fail(spec, inspected.error());
    const Inspection &facts = inspected->inspection;
    for (const Error &problem : facts.problems)
        reportProblem(problem); // printed once each; the exit status says something was wrong
    // A volume without its password is described all the same; what it holds is the error.
    const bool locked = facts.openError && facts.openError->kind == ErrorKind::Password;
    if (facts.openError && !locked)
        return fail(spec, *facts.openError);
    const QJsonObject info = facts.toJson();
    if (p.parser().isSet(QStringLiteral("json"))) {
        printLine(QString::fromUtf8(QJsonDocument(info).toJson(QJsonDocument::Compact)));
    } else {
        for (auto it = info.begin(); it != info.end(); ++it)
            printValue(it.key(), it.value(), 0);
    }
    return locked ? fail(spec, *facts.openError) : Success;
}

} // namespace asc::cli
