// SPDX-License-Identifier: MIT
#include "desktop_applications.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QLocale>
#include <QMimeDatabase>
#include <QProcess>
#include <QSet>
#include <QUrl>
#include <algorithm>

namespace asc::ui {

QStringList xdgDataDirs()
{
    QStringList dirs;
    const QString home = qEnvironmentVariable("XDG_DATA_HOME");
    dirs << (home.isEmpty() ? QDir::homePath() + QStringLiteral("/.local/share") : home);
    const QString system = qEnvironmentVariable("XDG_DATA_DIRS");
    dirs << (system.isEmpty() ? QStringList{QStringLiteral("/usr/local/share"), QStringLiteral("/usr/share")}
                              : system.split(QLatin1Char(':'), Qt::SkipEmptyParts));
    return dirs;
}

namespace {

struct DesktopFile {
    QString name;
    QString exec;
    QStringList mimeTypes;
    bool shown = false;
};

// The [Desktop Entry] group's keys we need; a localised Name[xx] wins over Name.
DesktopFile readDesktopFile(const QString &path)
{
    DesktopFile out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || file.size() > (1 << 20))
        return out;
    const QString language = QLocale().name().section(QLatin1Char('_'), 0, 0);
    bool inEntry = false, application = false, hidden = false;
    QString localName;
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.startsWith(QLatin1Char('['))) {
            inEntry = line == QLatin1String("[Desktop Entry]");
            continue;
        }
        if (!inEntry || line.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq < 0)
            continue;
        const QString key = line.left(eq).trimmed();
        const QString value = line.mid(eq + 1).trimmed();
        if (key == QLatin1String("Type"))
            application = value == QLatin1String("Application");
        else if (key == QLatin1String("Name"))
            out.name = value;
        else if (key == QStringLiteral("Name[%1]").arg(language))
            localName = value;
        else if (key == QLatin1String("Exec"))
            out.exec = value;
        else if (key == QLatin1String("MimeType"))
            out.mimeTypes = value.split(QLatin1Char(';'), Qt::SkipEmptyParts);
        else if ((key == QLatin1String("NoDisplay") || key == QLatin1String("Hidden")) && value == QLatin1String("true"))
            hidden = true;
    }
    if (!localName.isEmpty())
        out.name = localName;
    out.shown = application && !hidden && !out.exec.isEmpty() && !out.name.isEmpty();
    return out;
}

// The desktop file ids the user (or the system) made the default for each type.
QStringList defaultsFor(const QStringList &types, const QStringList &dataDirs)
{
    QStringList files;
    const QString config = qEnvironmentVariable("XDG_CONFIG_HOME");
    files << (config.isEmpty() ? QDir::homePath() + QStringLiteral("/.config") : config) + QStringLiteral("/mimeapps.list");
    for (const QString &dir : dataDirs)
        files << dir + QStringLiteral("/applications/mimeapps.list");
    QStringList ids;
    for (const QString &path : files) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        bool defaults = false;
        while (!file.atEnd()) {
            const QString line = QString::fromUtf8(file.readLine()).trimmed();
            if (line.startsWith(QLatin1Char('['))) {
                defaults = line == QLatin1String("[Default Applications]");
                continue;
            }
            const qsizetype eq = line.indexOf(QLatin1Char('='));
            if (defaults && eq > 0 && types.contains(line.left(eq).trimmed()))
                ids << line.mid(eq + 1).split(QLatin1Char(';'), Qt::SkipEmptyParts);
        }
    }
    return ids;
}

} // namespace

std::vector<DesktopApplication> applicationsFor(const QString &mimeType, const QStringList &dataDirs)
{
    QStringList types{mimeType};
    const QMimeType mime = QMimeDatabase().mimeTypeForName(mimeType);
    if (mime.isValid())
        types << mime.allAncestors();
    std::vector<DesktopApplication> found;
    QSet<QString> seenIds;
    for (const QString &dir : dataDirs) {
        const QString root = dir + QStringLiteral("/applications");
        QDirIterator it(root, {QStringLiteral("*.desktop")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            // The desktop file id: the path below applications/, '/' as '-'; the first found wins.
            const QString id = path.mid(root.size() + 1).replace(QLatin1Char('/'), QLatin1Char('-'));
            if (seenIds.contains(id))
                continue;
            seenIds.insert(id);
            const DesktopFile file = readDesktopFile(path);
            if (!file.shown)
                continue;
            if (std::none_of(types.begin(), types.end(), [&](const QString &t) { return file.mimeTypes.contains(t); }))
                continue;
            found.push_back({file.name, file.exec, path});
        }
    }
    const QStringList defaults = defaultsFor(types, dataDirs);
    auto rank = [&](const DesktopApplication &app) {
        const QString id = app.desktopFile.section(QLatin1Char('/'), -1);
        const qsizetype at = defaults.indexOf(id);
        return at < 0 ? defaults.size() : at;
    };
    std::stable_sort(found.begin(), found.end(), [&](const DesktopApplication &a, const DesktopApplication &b) {
        const auto ra = rank(a), rb = rank(b);
        return ra != rb ? ra < rb : a.name.localeAwareCompare(b.name) < 0;
    });
    return found;
}

QStringList commandFor(const DesktopApplication &app, const QString &file)
{
    // Split first, then expand: a file name with spaces or quotes stays one argument.
    const QStringList parts = QProcess::splitCommand(app.exec);
    QStringList out;
    bool placed = false;
    for (const QString &part : parts) {
        if (part == QLatin1String("%f") || part == QLatin1String("%F")) {
            out << file;
            placed = true;
        } else if (part == QLatin1String("%u") || part == QLatin1String("%U")) {
            out << QUrl::fromLocalFile(file).toString();
            placed = true;
        } else if (part == QLatin1String("%i") || part == QLatin1String("%c") || part == QLatin1String("%k")) {
            continue;
        } else {
            QString arg = part;
            arg.replace(QLatin1String("%f"), file).replace(QLatin1String("%u"), QUrl::fromLocalFile(file).toString());
            placed = placed || arg != part;
            arg.replace(QLatin1String("%%"), QLatin1String("%"));
            out << arg;
        }
    }
    if (out.isEmpty())
        return {};
    if (!placed)
        out << file;
    return out;
}

} // namespace asc::ui
