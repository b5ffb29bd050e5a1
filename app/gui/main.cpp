// SPDX-License-Identifier: MIT
// archivescope: the desktop application. Every file argument opens (the first in this window).

#include "backing_question.h"
#include "io/byte_text.h"
#include "main_window.h"
#include "window_set.h"
#include "open_job.h"
#include "open_measurement.h"
#include "io/units.h"
#include "sandbox/process_setup.h"
#include "io/version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <cstdio>
#include <memory>
#include <malloc.h>

int main(int argc, char **argv)
{
    // Listing workers allocate and free batches of entries in their own malloc arenas; a fixed
    // trim threshold lets glibc hand that memory back instead of keeping tens of MiB per arena.
    mallopt(M_TRIM_THRESHOLD, 1 << 20);
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    asc::useUtf8Locale();
    QApplication app(argc, argv);
    asc::useUtf8Locale(); // QApplication sets the locale from the environment again
    QApplication::setOrganizationName(QStringLiteral("ArchiveScope"));
    QApplication::setApplicationName(QStringLiteral("ArchiveScope"));
    QApplication::setApplicationVersion(asc::programVersion());
    QApplication::setDesktopFileName(QStringLiteral("io.github.archivescope.archivescope"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Browse archives and disk images, and measure how fast they read."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Files or SPECs to open."), QStringLiteral("[FILE...]"));
    QCommandLineOption measure(QStringLiteral("measure-open"),
                               QStringLiteral("Open FILE, print time to the first 1000 rows, time to the whole tree, memory per entry and the longest stall of the window (max_ui_stall_ms) as JSON, and quit (for bench/)."),
                               QStringLiteral("FILE"));
    parser.addOption(measure);
    QCommandLineOption measureFilter(QStringLiteral("filter"),
                                     QStringLiteral("With --measure-open: type TEXT into the filter once the listing is complete and report the time to its first match and to the end of its search."),
                                     QStringLiteral("TEXT"));
    parser.addOption(measureFilter);
    QCommandLineOption exitAfterOpenOption(QStringLiteral("exit-after-open"), QStringLiteral("Print one line per opened file, then quit."));
    exitAfterOpenOption.setFlags(QCommandLineOption::HiddenFromHelp); // for the package test
    parser.addOption(exitAfterOpenOption);
    QCommandLineOption noSandbox(QStringLiteral("no-sandbox"), QStringLiteral("Parse files in this process instead of a locked-down worker process per file (for debugging)."));
    parser.addOption(noSandbox);
    QCommandLineOption memoryLimit(QStringLiteral("memory-limit"), QStringLiteral("The address space each worker process may use (default 2G)."), QStringLiteral("SIZE"));
    parser.addOption(memoryLimit);
    QCommandLineOption promptAfter(QStringLiteral("time-limit"),
                                   QStringLiteral("Ask whether to stop a worker that has read nothing and answered nothing for this long (default 30)."),
                                   QStringLiteral("SECONDS"));
    parser.addOption(promptAfter);
    // argv as bytes (not through the locale): a file or entry name need not be UTF-8.
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << asc::bytesToText(QByteArray(argv[i]));
    parser.process(arguments);
    asc::ui::SandboxChoice &sandbox = asc::ui::sandbox();
    sandbox.enabled = !parser.isSet(noSandbox);
    if (parser.isSet(memoryLimit)) {
        const auto bytes = asc::parseSize(parser.value(memoryLimit));
        if (!bytes || *bytes < (uint64_t(64) << 20)) {
            std::fprintf(stderr, "archivescope: --memory-limit: '%s' is not a size of at least 64M (e.g. 512M, 2G)\n", qPrintable(parser.value(memoryLimit)));
            return 2;
        }
        sandbox.worker.limits.memoryBytes = *bytes;
    }
    if (parser.isSet(promptAfter)) {
        bool ok = false;
        sandbox.promptSeconds = parser.value(promptAfter).toInt(&ok);
        if (!ok || sandbox.promptSeconds < 1) {
            std::fprintf(stderr, "archivescope: --time-limit: '%s' is not a number of seconds\n", qPrintable(parser.value(promptAfter)));
            return 2;
        }
    }
    if (parser.isSet(measure))
        return asc::ui::measureOpen(parser.value(measure), parser.value(measureFilter));

    asc::ui::installBackingQuestion();
    asc::ui::WindowSet windows;
    asc::ui::MainWindow &window = *windows.newWindow();
    window.show();
    const QStringList files = parser.positionalArguments();
    if (parser.isSet(QStringLiteral("exit-after-open"))) {
        // Each window reports its file; quit when all have answered.
        auto pending = std::make_shared<int>(int(files.size()));
        auto report = [pending](asc::ui::MainWindow *w, const QString &spec, bool ok) {
            if (ok)
                std::printf("opened %s\n", qPrintable(spec));
            else
                std::printf("failed %s: %s\n", qPrintable(spec), qPrintable(w->bannerText()));
            std::fflush(stdout);
            if (--*pending <= 0)
                QApplication::quit();
        };
        auto watch = [report](asc::ui::MainWindow *w) {
            QObject::connect(w, &asc::ui::MainWindow::opened, w, [report, w](const QString &spec, bool ok) { report(w, spec, ok); });
        };
        QObject::connect(&windows, &asc::ui::WindowSet::windowOpened, &windows, watch);
        watch(&window);
        if (files.isEmpty())
            return 0;
    }
    windows.openFiles(files, &window);
    return app.exec();
}
