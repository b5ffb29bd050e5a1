// SPDX-License-Identifier: MIT
#include "entry_tree_view.h"

#include "entry_tree_model.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QTimer>

namespace asc::ui {

EntryTreeView::EntryTreeView(QAbstractItemModel *model, QWidget *parent)
    : QTreeView(parent)
{
    setModel(model);
    setSortingEnabled(true);
    sortByColumn(EntryTreeModel::Name, Qt::AscendingOrder);
    setUniformRowHeights(true); // needed for 100k-row trees to stay fast
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setDragEnabled(true);
    setDragDropMode(QAbstractItemView::DragOnly);
    setAlternatingRowColors(true);
    header()->setSectionResizeMode(QHeaderView::Interactive);
    header()->resizeSection(EntryTreeModel::Name, 320);
}

void EntryTreeView::scheduleFitNameColumn()
{
    // Once per pass of the event loop, however many rows were expanded in it: the filter
    // expands thousands of folders at once, and a fit per expansion (each measuring up to a
    // thousand rows' text) kept the window from repainting for 20 s.
    if (fitPending_)
        return;
    fitPending_ = true;
    QTimer::singleShot(0, this, [this] {
        fitPending_ = false;
        fitNameColumn();
        ++fits_;
    });
}

void EntryTreeView::fitNameColumn()
{
    // sizeHintForColumn looks only at the rows laid out (the expanded ones): cheap on big trees.
    const int wanted = std::min(sizeHintForColumn(EntryTreeModel::Name) + indentation(), std::max(320, viewport()->width() / 2));
    if (wanted > columnWidth(EntryTreeModel::Name))
        setColumnWidth(EntryTreeModel::Name, wanted);
}

void EntryTreeView::keyPressEvent(QKeyEvent *event)
{
    // Right on a row with nothing below it (a file) does nothing, as in file managers: QTreeView
    // would scroll the view sideways instead.
    if (event->key() == Qt::Key_Right && event->modifiers() == Qt::NoModifier) {
        const QModelIndex current = currentIndex();
        if (current.isValid() && !model()->hasChildren(current.siblingAtColumn(0))) {
            event->accept();
            return;
        }
    }
    QTreeView::keyPressEvent(event);
}

} // namespace asc::ui
