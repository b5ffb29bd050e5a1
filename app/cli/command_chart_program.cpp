// SPDX-License-Identifier: MIT
// `chart ...`: renders with Qt Widgets and Charts, which the CLI does not load (it starts with Qt
// Core only, so every other command starts faster): runs archivescope-chart with the same
// arguments in this process's place.

#include "cli_output.h"
#include "commands.h"
#include "remote/worker_channel.h"

#include <QCoreApplication>
#include <QFile>
#include <cerrno>
#include <cstring>
#include <unistd.h>
#include <vector>

namespace asc::cli {

int runChartProgram(const QStringList &args)
{
    const QString program = helperProgram(QStringLiteral("archivescope-chart"), "ARCHIVESCOPE_CHART");
    const QByteArray path = QFile::encodeName(program);
    std::vector<QByteArray> bytes;
    for (const QString &arg : args)
        bytes.push_back(QFile::encodeName(arg));
    // Named as the CLI was (its usage lines say archivescope-cli); the program itself is `path`.
    QByteArray name = QFile::encodeName(QCoreApplication::arguments().value(0, QStringLiteral("archivescope-cli")));
    std::vector<char *> argv = {name.data()};
    for (QByteArray &arg : bytes)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    std::fflush(stdout);
    ::execv(path.constData(), argv.data());
    return fail(QStringLiteral("chart"), Error::system(program, QStringLiteral("start"), errno));
}

} // namespace asc::cli
