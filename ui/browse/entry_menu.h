// SPDX-License-Identifier: MIT
#pragma once
// The tree's context menu and double-click, as Ark and 7-Zip offer them: Open (with the default
// application, after extracting to a temporary folder in the background), Open With…, Preview,
// Extract…, Extract Here, Copy Path, Copy SPEC, Benchmark This, Properties. Double-click: a
// container or folder expands (the view does it), a file previews.

#include <QList>
#include <QObject>
#include <optional>

#include "desktop/desktop_applications.h"

class QMenu;
class QPoint;

namespace asc::ui {

class EntryExtractor;
class EntryFilterModel;
class EntryTreeModel;
class EntryTreeView;

class EntryMenu : public QObject {
    Q_OBJECT
public:
    EntryMenu(EntryTreeView *view, EntryTreeModel *model, EntryFilterModel *proxy, EntryExtractor *extractor);

    // The menu for the current selection (exposed for tests; the view shows it on right-click).
    QMenu *build(QWidget *parent);
    QList<int32_t> selectedNodes() const;
    // Where Extract Here puts things: beside the open file, in a folder named after it.
    QString hereFolder() const;
    // Extracts the node to a temporary folder and opens it with the default application
    // (`command` empty) or with `command` (Open With…).
    // With the desktop's default application, or with `app` (its Exec= line gets the file).
    void open(int32_t node, const std::optional<DesktopApplication> &app = std::nullopt);

Q_SIGNALS:
    void previewRequested(int32_t node);
    void extractRequested();
    void extractHereRequested(const QString &folder);
    void benchmarkRequested(const QString &spec, qint64 bytes);
    // Test (false) or Checksums (true) of what is below SPEC.
    void checkRequested(const QString &spec, bool checksums);
    void propertiesRequested(int32_t node);
    void message(const QString &text);

private:
    void showMenu(const QPoint &at);
    void doubleClicked(int32_t node);

    EntryTreeView *view_;
    EntryTreeModel *model_;
    EntryFilterModel *proxy_;
    EntryExtractor *extractor_;
};

} // namespace asc::ui
