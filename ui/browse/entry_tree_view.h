// SPDX-License-Identifier: MIT
#pragma once
// The tree of entries: sorted by name, many rows fast (uniform heights), several selected,
// dragged out (never dropped on).

#include <QTreeView>

namespace asc::ui {

class EntryTreeView : public QTreeView {
    Q_OBJECT
public:
    EntryTreeView(QAbstractItemModel *model, QWidget *parent);
    // Widens the Name column to what the shown names need (never narrower than set), so deep
    // names do not end in "…"; bounded to half the view.
    void fitNameColumn();
    void scheduleFitNameColumn(); // fitNameColumn() once the current work is done
    int fitsDone() const { return fits_; } // scheduled fits that ran (for tests)

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    void noteExpanded(const QModelIndex &index);

    bool fitPending_ = false;
    int fits_ = 0;
    int deepest_ = 1; // the deepest level expanded since the tree was reset
    int standardIndent_ = 20; // the style's indentation, used while the tree is shallow
};

} // namespace asc::ui
