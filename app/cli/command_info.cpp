// SPDX-License-Identifier: MIT
// `info SPEC [--json]`: the format of SPEC and its metadata.

#include "argument_parser.h"
#include "cli_output.h"
#include "commands.h"
#include "formats/format.h"
#include "formats/image/disk_image.h"
#include "open/spec.h"

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
    auto location = resolve(spec);
    if (!location)
        return fail(spec, location.error());
    QJsonObject info;
    info[QStringLiteral("spec")] = spec;
    if (location->isDirectory()) {
        info[QStringLiteral("type")] = QStringLiteral("dir");
        info[QStringLiteral("container")] = location->parent->info();
    } else {
        info[QStringLiteral("size")] = double(location->raw->size());
        // A disk image: its header, then what its virtual disk holds under "content".
        QJsonObject *target = &info;
        QJsonObject content;
        if (auto image = std::dynamic_pointer_cast<const DiskImage>(location->source)) {
            const QJsonObject details = image->info();
            for (auto it = details.begin(); it != details.end(); ++it)
                info[it.key()] = it.value();
            target = &content;
        }
        auto format = probeFormat(location->source);
        if (!format)
            return fail(spec, format.error());
        if (*format) {
            auto container = openContainer(location->source);
            if (!container)
                return fail(spec, container.error());
            const QJsonObject details = (*container)->info();
            for (auto it = details.begin(); it != details.end(); ++it)
                (*target)[it.key()] = it.value();
        } else if (target == &info) {
            info[QStringLiteral("format")] = QStringLiteral("raw");
        }
        if (target == &content && !content.isEmpty())
            info[QStringLiteral("content")] = content;
    }
    if (p.parser().isSet(QStringLiteral("json"))) {
        printLine(QString::fromUtf8(QJsonDocument(info).toJson(QJsonDocument::Compact)));
        return Success;
    }
    for (auto it = info.begin(); it != info.end(); ++it)
        printValue(it.key(), it.value(), 0);
    return Success;
}

} // namespace asc::cli
