// SPDX-License-Identifier: MIT
#include "window_set.h"

#include "main_window.h"

namespace asc::ui {

WindowSet::WindowSet(QObject *parent)
    : QObject(parent)
{
}

WindowSet::~WindowSet()
{
    for (MainWindow *w : windows_)
        delete w;
}

MainWindow *WindowSet::newWindow()
{
    auto *window = new MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose, false);
    // Cascaded below and right of the newest open window, as document windows are: two files
    // opened together are two windows, not one hiding the other.
    for (auto it = windows_.rbegin(); it != windows_.rend(); ++it) {
        if ((*it)->isVisible()) {
            window->move((*it)->pos() + QPoint(32, 32));
            break;
        }
    }
    window->setExtraFileOpener([this](const QString &spec) {
        MainWindow *other = newWindow();
        other->show();
        other->openSpec(spec);
    });
    windows_.push_back(window);
    Q_EMIT windowOpened(window);
    return window;
}

void WindowSet::openFiles(const QStringList &specs, MainWindow *into)
{
    if (specs.isEmpty())
        return;
    MainWindow *first = into ? into : newWindow();
    first->show();
    first->openFiles(specs);
}

} // namespace asc::ui
