// SPDX-License-Identifier: MIT
// archivescope-screenshots: makes the README's pictures with the application's own window (not
// installed; scripts/screenshots.sh runs it under Xvfb). Opens FILE, benchmarks it with the
// given strategies, grabs the window halfway through the run and at the end, exports the chart.
// Driven by the window's signals, not by timers.

#include "bench/bench_panel.h"
#include "main_window.h"
#include "process_setup.h"

#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>

int main(int argc, char **argv)
{
    asc::useUtf8Locale();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ArchiveScope-screenshots")); // not the user's settings
    QApplication::setApplicationName(QStringLiteral("ArchiveScope"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Make the README's pictures with the application's own window."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("The file to open and benchmark."));
    QCommandLineOption strategies(QStringLiteral("strategies"), QStringLiteral("Comma-separated read strategies."), QStringLiteral("LIST"));
    QCommandLineOption mid(QStringLiteral("mid-run"), QStringLiteral("Picture of the window halfway through the run."), QStringLiteral("PNG"));
    QCommandLineOption end(QStringLiteral("at-end"), QStringLiteral("Picture of the window when the run ends."), QStringLiteral("PNG"));
    QCommandLineOption chart(QStringLiteral("chart"), QStringLiteral("Export the chart when the run ends (PNG, SVG, PDF)."), QStringLiteral("FILE"));
    parser.addOptions({strategies, mid, end, chart});
    parser.process(app);
    if (parser.positionalArguments().size() != 1)
        parser.showHelp(2);

    asc::ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    asc::ui::BenchPanel *panel = window.benchPanel();
    if (parser.isSet(strategies))
        panel->setStrategies(parser.value(strategies).split(QLatin1Char(',')));
    panel->setRuns(3, 1);
    int status = 0;
    QObject::connect(&window, &asc::ui::MainWindow::listingFinished, panel, &asc::ui::BenchPanel::run, Qt::SingleShotConnection);
    QObject::connect(&window, &asc::ui::MainWindow::opened, &window, [&](const QString &spec, bool ok) {
        if (!ok) {
            std::fprintf(stderr, "archivescope-screenshots: cannot open %s: %s\n", qPrintable(spec), qPrintable(window.bannerText()));
            QApplication::exit(1);
        }
    });
    bool grabbedMid = false;
    QObject::connect(panel, &asc::ui::BenchPanel::progressed, &window, [&](int done, int total) {
        if (parser.isSet(mid) && !grabbedMid && done * 2 >= total) {
            grabbedMid = true;
            window.grab().save(parser.value(mid));
        }
    });
    QObject::connect(panel, &asc::ui::BenchPanel::runFinished, &window, [&](bool ok) {
        QApplication::processEvents(); // the last point drawn
        if (parser.isSet(chart) && !panel->exportChart(parser.value(chart)))
            status = 1;
        if (parser.isSet(end))
            window.grab().save(parser.value(end));
        QApplication::exit(ok ? status : 1);
    });
    window.openSpec(parser.positionalArguments().first());
    return app.exec();
}
