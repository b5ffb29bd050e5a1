// SPDX-License-Identifier: MIT
#pragma once
// Sorting (folders first, names in natural order) and filtering (case-insensitive substring, or a
// glob when the text has * or ?) that keeps the parents of matches visible.

#include <QSortFilterProxyModel>

namespace asc::ui {

class EntryFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit EntryFilterModel(QObject *parent = nullptr);
    void setFilterText(const QString &text);

    bool hasChildren(const QModelIndex &parent = {}) const override;

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
};

// "file2" < "file10"; case-insensitive.
bool naturalLess(QByteArrayView a, QByteArrayView b);

} // namespace asc::ui
