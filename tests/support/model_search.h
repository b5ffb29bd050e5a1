// SPDX-License-Identifier: MIT
#pragma once
// Finding rows of a tree model by their displayed name, for GUI tests.

#include <QAbstractItemModel>

namespace asc::test {

// The first row below `parent` whose column 0 shows `name`, searched depth first (only the
// direct children when `recursive` is false); invalid when there is none.
QModelIndex findByName(const QAbstractItemModel *model, const QString &name, const QModelIndex &parent = {}, bool recursive = true);

} // namespace asc::test
