// SPDX-License-Identifier: MIT
#include "recent_files.h"

#include <QSettings>

namespace asc::ui {

static const char *kKey = "recentFiles";

QStringList RecentFiles::list() const
{
    return QSettings().value(QLatin1String(kKey)).toStringList();
}

void RecentFiles::add(const QString &spec)
{
    QStringList files = list();
    files.removeAll(spec);
    files.prepend(spec);
    while (files.size() > kMax)
        files.removeLast();
    QSettings().setValue(QLatin1String(kKey), files);
}

void RecentFiles::clear()
{
    QSettings().remove(QLatin1String(kKey));
}

} // namespace asc::ui
