// SPDX-License-Identifier: MIT
#include "argument_parser.h"

#include "cli_output.h"

#include <cstdio>

namespace asc::cli {

ArgumentParser::ArgumentParser(const QString &command, const QString &description)
    : command_(command)
{
    parser_.setApplicationDescription(description);
    parser_.addHelpOption();
}

void ArgumentParser::addPositional(const QString &name, const QString &description, const QString &syntax)
{
    parser_.addPositionalArgument(name, description, syntax);
}

std::optional<int> ArgumentParser::parse(const QStringList &args, int positionalCount, int maxPositional)
{
    QStringList withProgram = args;
    withProgram[0] = QStringLiteral("archivescope-cli ") + command_;
    if (!parser_.parse(withProgram))
        return usage(command_ + QStringLiteral(": ") + parser_.errorText());
    if (parser_.isSet(QStringLiteral("help"))) {
        std::fputs(parser_.helpText().toLocal8Bit().constData(), stdout);
        return Success;
    }
    const qsizetype count = parser_.positionalArguments().size();
    if (count < positionalCount || (maxPositional >= 0 && count > maxPositional) ||
        (maxPositional < 0 && count != positionalCount))
        return usage(QStringLiteral("%1: expected %2 argument%3, got %4")
                         .arg(command_)
                         .arg(positionalCount)
                         .arg(positionalCount == 1 ? QString() : QStringLiteral("s"))
                         .arg(count));
    return std::nullopt;
}

} // namespace asc::cli
