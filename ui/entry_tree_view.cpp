// SPDX-License-Identifier: MIT
#include "entry_tree_view.h"

#include "entry_tree_model.h"

#include <QHeaderView>

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

} // namespace asc::ui
