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
#include <optional>
#include <vector>

namespace asc::ui {

class EntryFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit EntryFilterModel(QObject *parent = nullptr);
    // On a big tree the text is matched in passes of kMarksPerPass names, one per turn of the
    // event loop, and applied when the pass reaches the end (filterApplied); a newer text
    // abandons the older one's passes. Small trees are matched and applied at once.
    void setFilterText(const QString &text);
    bool filtering() const { return active_; }
    bool applying() const { return pending_.has_value(); }
    static constexpr int32_t kMarksPerPass = 65536;
    // The most names matched in one turn of the event loop, and names matched in all (for tests).
    int32_t largestMarkPass() const { return largestPass_; }
    uint64_t namesMatched() const { return namesMatched_; }

    bool hasChildren(const QModelIndex &parent = {}) const override;
    // Entries whose own name matches (not the folders shown only to lead to them).
    uint64_t matchCount() const;
    // The first `limit` matching nodes in tree order (the view opens the way to these only).
    std::vector<int32_t> firstMatches(size_t limit) const;
    // Rows the proxy asked about since the model was made: what a keystroke costs, for tests.
    uint64_t rowsEvaluated() const { return rowsEvaluated_; }

Q_SIGNALS:
    // A text is about to be applied (the view may close what the last one opened first: every
    // folder open when the proxy drops its mappings is filtered again, row by row).
    void aboutToApplyFilter();
    // The text set last is applied: its matches are what the proxy shows.
    void filterApplied();

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    enum Mark : uint8_t { Hidden = 0,
                          LeadsToMatch = 1,
                          Matches = 2 }; // bits: a folder may do both
    struct Matcher {
        QByteArray asciiNeedle; // a plain ASCII filter, lower case: matched on the names' bytes
        QRegularExpression pattern; // anything else, matched on the decoded name
    };
    struct Marking {
        Matcher matcher;
        std::vector<uint8_t> marks; // per node
        int32_t upTo = 1; // nodes below this are marked
        uint64_t matches = 0;
    };
    bool nameMatches(const Matcher &matcher, int32_t node) const;
    // Marks nodes [marking.upTo, end) and their folders. True when a node below `existing`
    // became visible.
    bool markRange(Marking &marking, int32_t end, int32_t existing) const;
    // Marks the nodes appended since the last call (and their folders). True when a node that
    // was already there became visible: the proxy must then look at its rows again.
    bool markNewNodes() const;
    void forgetMarks();
    void markPass(uint64_t generation);
    void apply(Marking marking, bool active);

    bool active_ = false;
    mutable Marking current_; // the applied text's marks, while a filter is set
    std::optional<Marking> pending_; // a newer text being matched pass by pass
    uint64_t generation_ = 0;
    int32_t largestPass_ = 0;
    mutable uint64_t namesMatched_ = 0;
    mutable uint64_t rowsEvaluated_ = 0;
    bool refilterPending_ = false;
};

// "file2" < "file10"; case-insensitive.
bool naturalLess(QByteArrayView a, QByteArrayView b);

} // namespace asc::ui
