// SPDX-License-Identifier: MIT
#include "command_table.h"

#include "commands.h"

#include <QCommandLineOption>
#include <utility>

namespace asc::cli {

const std::vector<CommandInfo> &commandTable()
{
    static const std::vector<CommandInfo> table = {
        {"formats", runFormats, RunsIn::ThisProcess},
        {"strategies", runStrategies, RunsIn::ThisProcess},
        {"cat", runCat, RunsIn::Worker},
        {"ls", runLs, RunsIn::Worker},
        {"index", runIndex, RunsIn::Worker},
        {"info", runInfo, RunsIn::Worker},
        {"extract", runExtract, RunsIn::ThisProcess}, // its archivescope-worker parses; this process writes
        {"hash", runHash, RunsIn::Worker},
        {"grep", runGrep, RunsIn::Worker, true},
        {"test", runTest, RunsIn::Worker},
        {"bench", runBench, RunsIn::Worker},
        {"compare", runCompare, RunsIn::ThisProcess},
        {"map", runMap, RunsIn::Worker},
        {"chart", runChartProgram, RunsIn::ThisProcess},
        {"writebench", runWriteBench, RunsIn::ThisProcess},
        {"mime-type", runMimeType, RunsIn::ThisProcess}, // the desktop's database reads its own files
        {"pxar-create", runPxarCreate, RunsIn::ThisProcess},
        {"mount", runMount, RunsIn::ThisProcess}, // its archivescope-worker parses; this process serves FUSE
    };
    return table;
}

const CommandInfo *findCommand(const QString &name)
{
    for (const CommandInfo &command : commandTable())
        if (name == QLatin1String(command.name))
            return &command;
    return nullptr;
}

QStringList specsOf(const QStringList &args)
{
    if (args.isEmpty())
        return {};
    // bench's options that take a value, from its own declaration: a value is never taken for a
    // SPEC (and granted as a file) because an option was left out of a list here. The other
    // commands' options are flags.
    static const QStringList benchValued = [] {
        QStringList names;
        for (const QCommandLineOption &option : benchOptions())
            if (!option.valueName().isEmpty())
                for (const QString &name : option.names())
                    names << (name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name;
        return names;
    }();
    const CommandInfo *command = findCommand(args.first());
    const bool bench = args.first() == QLatin1String("bench");
    bool pattern = command && command->patternFirst;
    QStringList specs;
    for (qsizetype i = 1; i < args.size(); ++i) {
        QString word = args[i];
        // `grep -- -PATTERN SPEC`: after --, the pattern may start with a dash.
        if (word == QLatin1String("--") && pattern && i + 1 < args.size())
            word = args[++i];
        else if (word.startsWith(QLatin1Char('-'))) {
            if (bench && !word.contains(QLatin1Char('=')) && benchValued.contains(word))
                ++i;
            continue;
        }
        if (!std::exchange(pattern, false))
            specs << word;
    }
    return specs;
}

} // namespace asc::cli
