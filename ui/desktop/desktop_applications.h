// SPDX-License-Identifier: MIT
#pragma once
// The applications the desktop knows for a type, as file managers and Ark list them under
// Open With: the .desktop files of the XDG data folders whose MimeType names the type (or a type
// it inherits from), the user's default first, then by name.

#include <QString>
#include <QStringList>
#include <vector>

namespace asc::ui {

struct DesktopApplication {
    QString name; // Name= (the user's language first)
    QString exec; // Exec=, field codes and all
    QString desktopFile; // its path
};

// $XDG_DATA_HOME (or ~/.local/share), then $XDG_DATA_DIRS (or /usr/local/share:/usr/share).
QStringList xdgDataDirs();
std::vector<DesktopApplication> applicationsFor(const QString &mimeType, const QStringList &dataDirs = xdgDataDirs());
// The program and arguments that open `file` with `app` (%f %F %u %U become the file, other field
// codes go; a command without one gets the file at its end). Empty when Exec= does not parse.
QStringList commandFor(const DesktopApplication &app, const QString &file);

} // namespace asc::ui
