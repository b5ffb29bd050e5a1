// SPDX-License-Identifier: MIT
#pragma once
// Sorting (folders first, names in natural order) and filtering (case-insensitive substring, or a
// glob when the text has * or ?) that keeps the parents of matches visible.

#include <QByteArray>
#include <QSortFilterProxyModel>

namespace asc::ui {

class EntryFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit EntryFilterModel(QObject *parent = nullptr);
    void setFilterText(const QString &text);

    bool hasChildren(const QModelIndex &parent = {}) const override;
    // Entries whose own name matches (not the folders shown only to lead to them). Counted on
    // from where the last count stopped: entries are only ever appended to the tree.
    uint64_t matchCount() const;

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    bool nameMatches(int32_t node) const;

    QByteArray asciiNeedle_; // a plain ASCII filter, lower case: matched on the names' bytes
    mutable int32_t countedUpTo_ = 1; // matchCount() has looked at the nodes below this one
    mutable uint64_t matches_ = 0;
};

// "file2" < "file10"; case-insensitive.
bool naturalLess(QByteArrayView a, QByteArrayView b);

} // namespace asc::ui
