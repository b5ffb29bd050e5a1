// SPDX-License-Identifier: MIT
// `formats` and `strategies`: what this build and machine can do.

#include "argument_parser.h"
#include "bench/read_strategy.h"
#include "cli_output.h"
#include "commands.h"
#include "open/catalog.h"
#include "io/async_reader.h"

namespace asc::cli {

static QString row(const QString &name, const QString &description)
{
    return name.leftJustified(28) + QLatin1Char(' ') + description;
}

int runFormats(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("formats"), QStringLiteral("One line per format this build can open: name, then a short description."));
    p.parser().addOption({QStringLiteral("mime-types"), QStringLiteral("Print the MIME types the formats open instead (one per line; the .desktop file is made from these).")});
    if (auto stop = p.parse(args, 0))
        return *stop;
    if (p.parser().isSet(QStringLiteral("mime-types"))) {
        const QStringList types = openableMimeTypes();
        for (const QString &type : types)
            printLine(type);
        return Success;
    }
    for (const FormatSummary &format : formatCatalog()) {
        if (format.variants.empty()) {
            printLine(row(format.name, format.description));
            continue;
        }
        for (const auto &[name, description] : format.variants)
            printLine(row(name, description));
    }
    return Success;
}

int runStrategies(const QStringList &args)
{
    ArgumentParser p(QStringLiteral("strategies"),
                     QStringLiteral("One line per read strategy available on this machine: name, then a description.\n"
                                    "The last line says which asynchronous backend is active."));
    if (auto stop = p.parse(args, 0))
        return *stop;
    for (const auto &strategy : readStrategies())
        printLine(row(strategy->name(), strategy->description()));
    printLine(QString());
    printLine(QStringLiteral("async backend: ") + describeAsyncBackend());
    return Success;
}

} // namespace asc::cli
