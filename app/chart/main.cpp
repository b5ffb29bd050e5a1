// SPDX-License-Identifier: MIT
// archivescope-chart chart RESULT.json -o OUT.(png|svg|pdf) [--size WxH]: what `archivescope-cli
// chart` runs (app/cli/command_chart_program.cpp): the chart the GUI draws, rendered offscreen by
// the same code. Its own program because it needs Qt Widgets and Charts, which the CLI does not load.

#include "cli_output.h"
#include "commands.h"
#include "sandbox/process_setup.h"
#include "io/version.h"

#include <QApplication>
#include <QFile>

int main(int argc, char **argv)
{
    asc::useUtf8Locale();
    // A GUI application is needed to draw; offscreen when there is no display.
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication application(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("archivescope-cli"));
    QCoreApplication::setApplicationVersion(asc::programVersion());
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args << QFile::decodeName(argv[i]);
    if (args.isEmpty() || args.first() != QLatin1String("chart"))
        args.prepend(QStringLiteral("chart"));
    return asc::cli::runChart(args);
}
