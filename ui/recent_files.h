// SPDX-License-Identifier: MIT
#pragma once
// The recently opened SPECs, most recent first, persisted with QSettings.

#include <QStringList>

namespace asc::ui {

class RecentFiles {
public:
    static constexpr int kMax = 10;
    QStringList list() const;
    void add(const QString &spec);
    void clear();
};

} // namespace asc::ui
