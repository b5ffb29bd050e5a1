// SPDX-License-Identifier: MIT
#pragma once
// The View menu: show or hide the benchmark panel and the status bar (a closed dock comes back
// from here), focus the filter (Ctrl+F) or the location (Ctrl+L), how deep the filter opens
// archives inside archives, and the name encoding of legacy archives.

#include <QMenu>

class QDockWidget;
class QStatusBar;

namespace asc::ui {

class LocationBar;
class NameEncodingMenu;

class ViewMenu : public QMenu {
    Q_OBJECT
public:
    ViewMenu(QDockWidget *benchmark, QStatusBar *statusBar, LocationBar *location, QWidget *parent);
    NameEncodingMenu *nameEncoding() const { return encoding_; }
    // Archives inside archives the filter opens (partitions and filesystems always); a setting.
    static int filterDepth();

Q_SIGNALS:
    void filterDepthChanged(int depth);

private:
    NameEncodingMenu *encoding_;
};

} // namespace asc::ui
