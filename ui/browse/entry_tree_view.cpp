// SPDX-License-Identifier: MIT
#include "entry_tree_view.h"

#include "entry_tree_model.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QTimer>
#include <algorithm>

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
    standardIndent_ = indentation();
    connect(this, &QTreeView::expanded, this, &EntryTreeView::noteExpanded);
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        deepest_ = 1;
        setIndentation(standardIndent_);
    });
}

void EntryTreeView::noteExpanded(const QModelIndex &index)
{
    int depth = 1; // of the rows just shown
    for (QModelIndex at = index; at.isValid(); at = at.parent())
        ++depth;
    if (depth > deepest_) {
        deepest_ = depth;
        scheduleFitNameColumn();
    }
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
    int room = std::max(320, viewport()->width() / 2);
    // A deep tree (48 levels of 20 px) pushed its names out of the column: blank rows. The
    // indentation shrinks so that the deepest level shown starts in the column's first half,
    // and past the narrowest indentation the column may take most of the view.
    const int indent = std::clamp(room / 2 / std::max(1, deepest_), std::min(4, standardIndent_), standardIndent_);
    if (indent != indentation())
        setIndentation(indent);
    if (deepest_ * indent + 160 > room)
        room = std::max(room, std::min(viewport()->width() - 80, deepest_ * indent + 240));
    const int wanted = std::min(sizeHintForColumn(EntryTreeModel::Name) + indentation(), room);
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
