// SPDX-License-Identifier: MIT
#pragma once
// Sorting (folders first, names in natural order) and filtering (case-insensitive substring, or a
// glob when the text has * or ?) that keeps the parents of matches visible.
//
// Filtering a million entries must not freeze the window: a text is matched once against the
// tree's own name bytes (one pass over flat records, marking each match and its folders), and
// the proxy then asks only about the rows of folders it shows (a mark per node: no recursive
// search per row, no mapping for folders nobody opened). Entries appended later are marked as
// they come. GUI thread only.

#include <QByteArray>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <vector>

namespace asc::ui {

class EntryFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit EntryFilterModel(QObject *parent = nullptr);
    void setFilterText(const QString &text);
    bool filtering() const { return active_; }

    bool hasChildren(const QModelIndex &parent = {}) const override;
    // Entries whose own name matches (not the folders shown only to lead to them).
    uint64_t matchCount() const;
    // The first `limit` matching nodes in tree order (the view opens the way to these only).
    std::vector<int32_t> firstMatches(size_t limit) const;
    // Rows the proxy asked about since the model was made: what a keystroke costs, for tests.
    uint64_t rowsEvaluated() const { return rowsEvaluated_; }

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    enum Mark : uint8_t { Hidden = 0,
                          LeadsToMatch = 1,
                          Matches = 2 }; // bits: a folder may do both
    bool nameMatches(int32_t node) const;
    // Marks the nodes appended since the last call (and their folders). True when a node that
    // was already there became visible: the proxy must then look at its rows again.
    bool markNewNodes() const;
    void forgetMarks();

    bool active_ = false;
    QByteArray asciiNeedle_; // a plain ASCII filter, lower case: matched on the names' bytes
    QRegularExpression pattern_; // anything else, matched on the decoded name
    mutable std::vector<uint8_t> marks_; // per node, while a filter is set
    mutable int32_t markedUpTo_ = 1;
    mutable uint64_t matches_ = 0;
    mutable uint64_t rowsEvaluated_ = 0;
    bool refilterPending_ = false;
};

// "file2" < "file10"; case-insensitive.
bool naturalLess(QByteArrayView a, QByteArrayView b);

} // namespace asc::ui
