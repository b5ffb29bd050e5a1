// archivescope: the desktop application. Every file argument opens (the first in this window).

#include "main_window.h"
#include "process_setup.h"
#include "version.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char **argv)
{
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
    parser.process(app);

    asc::ui::MainWindow window;
    window.show();
    const QStringList files = parser.positionalArguments();
    if (!files.isEmpty())
        window.openSpec(files.first());
    return app.exec();
}
