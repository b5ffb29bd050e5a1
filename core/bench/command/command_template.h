// SPDX-License-Identifier: MIT
#pragma once
// `bench --command 'NAME=TEMPLATE'`: the user's own reader as a benchmark contender. A template is
// a command line with placeholders {file}, {stdin}, {buffer} and {buffer_kib}, split into words
// like a shell does (quotes and backslashes honoured) but run without one unless asked.

#include "io/result.h"

#include <QString>
#include <QStringList>
#include <cstdint>

namespace asc {

struct CommandTemplate {
    QString name; // the series name: "dd"
    QString text; // the template as written: "dd if={file} of=/dev/null bs={buffer}"
    QStringList words; // split, placeholders still in
    bool shell = false; // run as /bin/sh -c TEXT (pipes, redirections)
    bool usesFile = false; // {file}
    bool usesStdin = false; // {stdin}: the target's bytes on standard input

    // The argument vector for one buffer size; `file` is the target's path (empty inside a container).
    QStringList expand(const QString &file, uint64_t buffer) const;
    // The expanded command as one line, for reports.
    QString expandedText(const QString &file, uint64_t buffer) const;
};

// "NAME=TEMPLATE" (or a bare TEMPLATE: named after its program). Errors say what is wrong: an
// unknown placeholder, no {buffer}/{buffer_kib}, an unterminated quote, neither {file} nor {stdin}.
// `trace --command` runs one command: there a buffer placeholder is optional (`needsBuffer`).
Result<CommandTemplate> parseCommandTemplate(const QString &spec, bool shell, bool needsBuffer = true);

// Shell-like word splitting: whitespace separates, '…' is literal, "…" honours \" \\ \$ \`,
// a backslash outside quotes escapes the next character. Empty on an unterminated quote.
std::optional<QStringList> splitCommandWords(const QString &text);

// The program a word names, as the kernel will find it: a path with '/' as is, else searched in
// PATH. Empty when there is none that can be executed.
QString findProgram(const QString &word);

} // namespace asc
