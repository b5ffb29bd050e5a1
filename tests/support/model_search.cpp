// SPDX-License-Identifier: MIT
#include "model_search.h"

namespace asc::test {

QModelIndex findByName(const QAbstractItemModel *model, const QString &name, const QModelIndex &parent, bool recursive)
{
    for (int row = 0; row < model->rowCount(parent); ++row) {
        const QModelIndex index = model->index(row, 0, parent);
        // A partition shows as "p1 — LABEL": its name is the part before the dash.
        if (index.data().toString() == name || index.data().toString().section(QStringLiteral(" — "), 0, 0) == name)
            return index;
        if (!recursive)
            continue;
        const QModelIndex deeper = findByName(model, name, index, true);
        if (deeper.isValid())
            return deeper;
    }
    return {};
}

} // namespace asc::test
