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
};

} // namespace asc::ui
