// SPDX-License-Identifier: MIT
#pragma once
// QCommandLineParser set up the same way for every subcommand: --help, usage errors -> exit 2.

#include <QCommandLineParser>
#include <optional>

namespace asc::cli {

class ArgumentParser {
public:
    ArgumentParser(const QString &command, const QString &description);
    QCommandLineParser &parser() { return parser_; }
    void addPositional(const QString &name, const QString &description, const QString &syntax = {});
    // Parses args; returns an exit code when the command should stop now (help shown or usage error).
    std::optional<int> parse(const QStringList &args, int positionalCount, int maxPositional = -1);

private:
    QString command_;
    QCommandLineParser parser_;
};

} // namespace asc::cli
