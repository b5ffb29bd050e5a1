// SPDX-License-Identifier: MIT
#pragma once
// Every command of the CLI, once: its name, its function, where it runs and how its words are
// laid out. main.cpp dispatches from it, the sandbox decides from it where a command runs, and a
// worker's crash message names the SPEC it finds in it.

#include <QStringList>
#include <vector>

namespace asc::cli {

enum class RunsIn {
    ThisProcess, // reads no file's content (formats, compare, chart...), or starts its own worker (extract, mount)
    Worker, // parses a file: in a locked-down worker that opens nothing itself, unless --no-sandbox
};

struct CommandInfo {
    const char *name;
    int (*run)(const QStringList &args);
    RunsIn runsIn;
    bool patternFirst = false; // grep: the first word is its pattern, never a file
};

const std::vector<CommandInfo> &commandTable();
// nullptr for a name no command has.
const CommandInfo *findCommand(const QString &name);
// The SPECs `args` (a command and its words) names: the words that are not options or an
// option's value, grep's pattern excepted, in order. What the worker is granted and what a
// crash message names.
QStringList specsOf(const QStringList &args);

} // namespace asc::cli
