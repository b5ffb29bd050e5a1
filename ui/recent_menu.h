// SPDX-License-Identifier: MIT
#pragma once
// File > Open Recent: the recently opened SPECs (RecentFiles), and Clear List.

#include "recent_files.h"

#include <QMenu>

namespace asc::ui {

class RecentMenu : public QMenu {
    Q_OBJECT
public:
    explicit RecentMenu(QWidget *parent = nullptr);
    void add(const QString &spec);

Q_SIGNALS:
    void chosen(const QString &spec);

private:
    void rebuild();
    RecentFiles files_;
};

} // namespace asc::ui
