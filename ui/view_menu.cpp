// SPDX-License-Identifier: MIT
#include "view_menu.h"

#include "location_bar.h"
#include "name_encoding_menu.h"

#include <QActionGroup>
#include <QTabWidget>
#include <QSettings>
#include <QStatusBar>

namespace asc::ui {

static const QString kDepthKey = QStringLiteral("filter/nestedDepth");

int ViewMenu::filterDepth()
{
    return QSettings().value(kDepthKey, 0).toInt();
}

ViewMenu::ViewMenu(QTabWidget *workspace, QStatusBar *statusBar, LocationBar *location, QWidget *parent)
    : QMenu(tr("&View"), parent)
{
    addAction(tr("&Browse"), QKeySequence(Qt::CTRL | Qt::Key_1), workspace, [workspace] { workspace->setCurrentIndex(0); });
    addAction(tr("Bench&mark"), QKeySequence(Qt::CTRL | Qt::Key_2), workspace, [workspace] { workspace->setCurrentIndex(1); });
    addSeparator();
    QAction *statusBarAction = addAction(tr("&Status Bar"));
    statusBarAction->setCheckable(true);
    statusBarAction->setChecked(true);
    connect(statusBarAction, &QAction::toggled, statusBar, &QWidget::setVisible);
    addSeparator();
    addAction(tr("&Filter Names"), QKeySequence::Find, location, &LocationBar::focusFilter);
    addAction(tr("&Location Bar"), QKeySequence(Qt::CTRL | Qt::Key_L), location, &LocationBar::focusAddress);
    QMenu *depth = addMenu(tr("Filter &Opens Nested Archives"));
    depth->setObjectName(QStringLiteral("filterDepth"));
    auto *group = new QActionGroup(depth);
    for (int level = 0; level <= 3; ++level) {
        QAction *action = depth->addAction(level == 0 ? tr("No") : tr("%1 Level(s) Deep").arg(level));
        action->setCheckable(true);
        action->setChecked(level == filterDepth());
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, level] {
            QSettings().setValue(kDepthKey, level);
            Q_EMIT filterDepthChanged(level);
        });
    }
    addSeparator();
    encoding_ = new NameEncodingMenu(this);
    addMenu(encoding_);
    addSeparator();
    addAction(tr("&Reset Layout"), this, [this, statusBar, statusBarAction] {
        statusBarAction->setChecked(true);
        statusBar->show();
        Q_EMIT layoutResetRequested();
    });
}

} // namespace asc::ui
