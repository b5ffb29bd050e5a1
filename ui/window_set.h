// SPDX-License-Identifier: MIT
#pragma once
// The application's windows: every file given or dropped opens, the first in the current window
// and each further one in a window of its own. (Each launch is its own process: no single instance.)

#include <QObject>
#include <QStringList>
#include <vector>

namespace asc::ui {

class MainWindow;

class WindowSet : public QObject {
    Q_OBJECT
public:
    explicit WindowSet(QObject *parent = nullptr);
    ~WindowSet() override;
    MainWindow *newWindow();
    // Opens the files: the first in `into` (or a new window), the others in new windows.
    void openFiles(const QStringList &specs, MainWindow *into = nullptr);
    const std::vector<MainWindow *> &windows() const { return windows_; }

Q_SIGNALS:
    void windowOpened(MainWindow *window);

private:
    std::vector<MainWindow *> windows_;
};

} // namespace asc::ui
