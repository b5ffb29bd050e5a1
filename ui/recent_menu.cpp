// SPDX-License-Identifier: MIT
#include "recent_menu.h"

namespace asc::ui {

RecentMenu::RecentMenu(QWidget *parent)
    : QMenu(tr("Open &Recent"), parent)
{
    rebuild();
}

void RecentMenu::add(const QString &spec)
{
    files_.add(spec);
    rebuild();
}

void RecentMenu::rebuild()
{
    clear();
    const QStringList specs = files_.list();
    for (const QString &spec : specs)
        addAction(spec, this, [this, spec] { Q_EMIT chosen(spec); });
    if (specs.isEmpty()) {
        addAction(tr("(none)"))->setEnabled(false);
        return;
    }
    addSeparator();
    addAction(tr("Clear List"), this, [this] {
        files_.clear();
        rebuild();
    });
}

} // namespace asc::ui
