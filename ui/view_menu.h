// SPDX-License-Identifier: MIT
#pragma once
// The View menu: the Browse and Benchmark workspaces (Ctrl+1, Ctrl+2), the status bar, focus the
// filter (Ctrl+F) or the location (Ctrl+L), how deep the filter opens archives inside archives,
// the name encoding of legacy archives, and Reset Layout.

#include <QMenu>

class QTabWidget;
class QStatusBar;

namespace asc::ui {

class LocationBar;
class NameEncodingMenu;

class ViewMenu : public QMenu {
    Q_OBJECT
public:
    ViewMenu(QTabWidget *workspace, QStatusBar *statusBar, LocationBar *location, QWidget *parent);
    NameEncodingMenu *nameEncoding() const { return encoding_; }
    // Archives inside archives the filter opens (partitions and filesystems always); a setting.
    static int filterDepth();

Q_SIGNALS:
    void filterDepthChanged(int depth);
    void layoutResetRequested();

private:
    NameEncodingMenu *encoding_;
};

} // namespace asc::ui
