// archivescope: the desktop application. Every file argument opens (the first in this window).

#include "backing_question.h"
#include "main_window.h"
#include "open_measurement.h"
#include "process_setup.h"
#include "version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <malloc.h>

int main(int argc, char **argv)
{
    // Listing workers allocate and free batches of entries in their own malloc arenas; a fixed
    // trim threshold lets glibc hand that memory back instead of keeping tens of MiB per arena.
    mallopt(M_TRIM_THRESHOLD, 1 << 20);
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    asc::useUtf8Locale();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ArchiveScope"));
    QApplication::setApplicationName(QStringLiteral("ArchiveScope"));
    QApplication::setApplicationVersion(asc::programVersion());
    QApplication::setDesktopFileName(QStringLiteral("io.github.archivescope.ArchiveScope"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Browse archives and disk images, and measure how fast they read."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("Files or SPECs to open."), QStringLiteral("[FILE...]"));
    QCommandLineOption measure(QStringLiteral("measure-open"),
                               QStringLiteral("Open FILE, print time to the first 1000 rows, time to the whole tree and memory per entry as JSON, and quit (for bench/)."),
                               QStringLiteral("FILE"));
    parser.addOption(measure);
    parser.process(app);
    if (parser.isSet(measure))
        return asc::ui::measureOpen(parser.value(measure));

    asc::ui::installBackingQuestion();
    asc::ui::MainWindow window;
    window.show();
    const QStringList files = parser.positionalArguments();
    if (!files.isEmpty())
        window.openSpec(files.first());
    return app.exec();
}
