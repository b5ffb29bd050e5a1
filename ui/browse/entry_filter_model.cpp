// SPDX-License-Identifier: MIT
#include "entry_filter_model.h"

#include "entry_tree_model.h"

#include <QRegularExpression>
#include <QTimer>
#include <algorithm>

namespace asc::ui {

EntryFilterModel::EntryFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    // The marks carry the folders of matches: the proxy need not search below each row itself.
    setRecursiveFilteringEnabled(false);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setSortRole(EntryTreeModel::SortRole);
    setFilterKeyColumn(EntryTreeModel::Name);
    // A new tree (the model resets with each file): the marks go, and their memory with them.
    connect(this, &QAbstractItemModel::modelReset, this, [this] {
        if (active_)
            forgetMarks();
        if (pending_) { // a text being matched starts again on the new tree
            pending_->marks = {};
            pending_->upTo = 1;
            pending_->matches = 0;
        }
    });
    // Entries arrive in batches: a match under a folder the proxy hid must show that folder. The
    // proxy ignores rows inserted below a hidden folder, so it is told to look again, once.
    connect(this, &QAbstractProxyModel::sourceModelChanged, this, [this] {
        if (!sourceModel())
            return;
        connect(sourceModel(), &QAbstractItemModel::rowsInserted, this, [this] {
            if (!active_ || !markNewNodes() || refilterPending_)
                return;
            refilterPending_ = true;
            QMetaObject::invokeMethod(
                this,
                [this] {
                    refilterPending_ = false;
                    if (active_)
                        invalidateRowsFilter();
                },
                Qt::QueuedConnection);
        });
    });
}

void EntryFilterModel::forgetMarks()
{
    Marking none;
    none.matcher = std::move(current_.matcher);
    current_ = std::move(none); // and the marks' memory with them
}

static int32_t treeSize(const QAbstractItemModel *source)
{
    const auto *model = static_cast<const EntryTreeModel *>(source);
    return model ? model->tree().size() : 0;
}

void EntryFilterModel::setFilterText(const QString &text)
{
    const bool glob = text.contains(QLatin1Char('*')) || text.contains(QLatin1Char('?'));
    bool ascii = true;
    for (QChar c : text)
        ascii = ascii && c.unicode() < 0x80;
    Marking marking;
    marking.matcher.asciiNeedle = !glob && ascii ? text.toLatin1().toLower() : QByteArray();
    marking.matcher.pattern = glob ? QRegularExpression(QRegularExpression::wildcardToRegularExpression(text, QRegularExpression::UnanchoredWildcardConversion),
                                                        QRegularExpression::CaseInsensitiveOption)
                                   : QRegularExpression(QRegularExpression::escape(text), QRegularExpression::CaseInsensitiveOption);
    ++generation_; // a text still being matched is abandoned: only the latest is applied
    pending_.reset();
    if (text.isEmpty() || treeSize(sourceModel()) <= kMarksPerPass) {
        // One pass over the names, before the proxy asks about any row.
        if (!text.isEmpty())
            markRange(marking, treeSize(sourceModel()), 0);
        apply(std::move(marking), !text.isEmpty());
        return;
    }
    // A million names took ~45 ms a key on the window's thread: in passes instead, the proxy
    // showing the previous text's rows meanwhile.
    pending_ = std::move(marking);
    QTimer::singleShot(0, this, [this, generation = generation_] { markPass(generation); });
}

void EntryFilterModel::markPass(uint64_t generation)
{
    if (generation != generation_ || !pending_)
        return;
    const int32_t size = treeSize(sourceModel());
    const int32_t end = std::min<int64_t>(size, int64_t(pending_->upTo) + kMarksPerPass);
    largestPass_ = std::max(largestPass_, end - pending_->upTo);
    markRange(*pending_, end, 0);
    if (pending_->upTo < treeSize(sourceModel())) {
        QTimer::singleShot(0, this, [this, generation] { markPass(generation); });
        return;
    }
    Marking done = std::move(*pending_);
    pending_.reset();
    apply(std::move(done), true);
}

void EntryFilterModel::apply(Marking marking, bool active)
{
    Q_EMIT aboutToApplyFilter();
    current_ = std::move(marking);
    active_ = active;
    // Not setFilterFixedString(): that refilters every folder the proxy ever mapped, and a folder
    // is mapped once rows were inserted below it, so every row of a listed tree was asked again
    // on each key. Dropping the mappings asks only about folders the view shows (its open
    // folders and selection come back through their persistent indexes).
    invalidate();
    Q_EMIT filterApplied();
}

bool EntryFilterModel::markRange(Marking &marking, int32_t end, int32_t existing) const
{
    const auto *model = static_cast<const EntryTreeModel *>(sourceModel());
    if (!model || end <= marking.upTo)
        return false;
    const EntryTree &tree = model->tree();
    if (marking.marks.size() < size_t(end))
        marking.marks.resize(size_t(end), Hidden);
    bool olderShown = false;
    for (int32_t node = marking.upTo; node < end; ++node) {
        if (!nameMatches(marking.matcher, node))
            continue;
        marking.marks[size_t(node)] |= Matches;
        ++marking.matches;
        for (int32_t up = tree.parent(node); up > 0 && !(marking.marks[size_t(up)] & LeadsToMatch); up = tree.parent(up)) {
            if (marking.marks.size() <= size_t(up))
                marking.marks.resize(size_t(up) + 1, Hidden);
            olderShown = olderShown || (up < existing && marking.marks[size_t(up)] == Hidden);
            marking.marks[size_t(up)] |= LeadsToMatch;
        }
    }
    namesMatched_ += uint64_t(end - marking.upTo);
    marking.upTo = end;
    return olderShown;
}

bool EntryFilterModel::markNewNodes() const
{
    if (!active_)
        return false;
    const int32_t end = treeSize(sourceModel());
    if (end <= current_.upTo)
        return false;
    return markRange(current_, end, current_.upTo);
}

// The same order on raw UTF-8 bytes: ASCII letters fold case, digit runs compare by value, other
// bytes compare as bytes (which for UTF-8 is code point order).
bool naturalLess(QByteArrayView a, QByteArrayView b)
{
    auto fold = [](char c) { return (c >= 'A' && c <= 'Z') ? char(c + 32) : c; };
    auto digit = [](char c) { return c >= '0' && c <= '9'; };
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            qsizetype ei = i, ej = j;
            while (ei < a.size() && digit(a[ei]))
                ++ei;
            while (ej < b.size() && digit(b[ej]))
                ++ej;
            qsizetype si = i, sj = j;
            while (si + 1 < ei && a[si] == '0')
                ++si;
            while (sj + 1 < ej && b[sj] == '0')
                ++sj;
            if (ei - si != ej - sj)
                return ei - si < ej - sj;
            for (; si < ei; ++si, ++sj)
                if (a[si] != b[sj])
                    return a[si] < b[sj];
            i = ei;
            j = ej;
            continue;
        }
        const auto ca = static_cast<unsigned char>(fold(a[i])), cb = static_cast<unsigned char>(fold(b[j]));
        if (ca != cb)
            return ca < cb;
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

// Whether `name` contains `needle` (lower-case ASCII), ASCII letters folded. UTF-8 bytes of other
// characters are all >= 0x80, so they never match part of an ASCII needle.
static bool containsFolded(QByteArrayView name, QByteArrayView needle)
{
    auto fold = [](char c) { return (c >= 'A' && c <= 'Z') ? char(c + 32) : c; };
    const qsizetype last = name.size() - needle.size();
    for (qsizetype at = 0; at <= last; ++at) {
        qsizetype i = 0;
        while (i < needle.size() && fold(name[at + i]) == needle[i])
            ++i;
        if (i == needle.size())
            return true;
    }
    return false;
}

bool EntryFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    ++rowsEvaluated_;
    if (!active_)
        return true;
    const auto *model = static_cast<const EntryTreeModel *>(sourceModel());
    const int32_t node = model->nodeOf(model->index(sourceRow, 0, sourceParent));
    if (node >= current_.upTo)
        markNewNodes(); // rows the proxy sees before our rowsInserted slot ran
    return node > 0 && size_t(node) < current_.marks.size() && current_.marks[size_t(node)] != Hidden;
}

bool EntryFilterModel::nameMatches(const Matcher &matcher, int32_t node) const
{
    const auto *model = static_cast<const EntryTreeModel *>(sourceModel());
    if (node <= 0 || !model)
        return false;
    // A plain ASCII text (what is typed nearly always) is looked for in the tree's own name
    // bytes: no QString made per entry of a million-entry tree on every keystroke.
    if (!matcher.asciiNeedle.isEmpty())
        return containsFolded(model->tree().name(node), matcher.asciiNeedle);
    return model->indexOf(node).data().toString().contains(matcher.pattern);
}

uint64_t EntryFilterModel::matchCount() const
{
    if (!active_)
        return 0;
    markNewNodes();
    return current_.matches;
}

std::vector<int32_t> EntryFilterModel::firstMatches(size_t limit) const
{
    std::vector<int32_t> found;
    if (!active_)
        return found;
    markNewNodes();
    for (size_t node = 1; node < current_.marks.size() && found.size() < limit; ++node)
        if (current_.marks[node] & Matches)
            found.push_back(int32_t(node));
    return found;
}

bool EntryFilterModel::hasChildren(const QModelIndex &parent) const
{
    // Without a filter, ask the source: the base class would build (and sort) a mapping for
    // every visible folder just to answer this. With one, the marks know a folder with a match
    // below it shows rows (one that can still be read is assumed to, as the base does).
    if (!sourceModel())
        return false;
    const QModelIndex source = mapToSource(parent);
    if (!active_ || !parent.isValid())
        return active_ ? QSortFilterProxyModel::hasChildren(parent) : sourceModel()->hasChildren(source);
    if (!sourceModel()->hasChildren(source))
        return false;
    if (sourceModel()->canFetchMore(source))
        return true;
    const int32_t node = static_cast<const EntryTreeModel *>(sourceModel())->nodeOf(source);
    markNewNodes();
    if (node > 0 && size_t(node) < current_.marks.size() && (current_.marks[size_t(node)] & LeadsToMatch))
        return true;
    // Otherwise the rows the proxy holds decide (while a change of filter is being applied they
    // may still be the old text's).
    return QSortFilterProxyModel::hasChildren(parent);
}

bool EntryFilterModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    // Straight from the tree records: this runs n log n times per sorted folder.
    const auto *model = static_cast<const EntryTreeModel *>(sourceModel());
    const EntryTree &tree = model->tree();
    const int32_t a = model->nodeOf(left);
    const int32_t b = model->nodeOf(right);
    const bool leftDir = tree.isDirectoryLike(a);
    const bool rightDir = tree.isDirectoryLike(b);
    if (leftDir != rightDir) // folders first, whichever the sort order
        return sortOrder() == Qt::AscendingOrder ? leftDir : rightDir;
    switch (left.column()) {
    case EntryTreeModel::Name:
        return naturalLess(tree.name(a), tree.name(b));
    case EntryTreeModel::Size:
        if (tree.contentSize(a) != tree.contentSize(b))
            return tree.contentSize(a) < tree.contentSize(b);
        return naturalLess(tree.name(a), tree.name(b));
    case EntryTreeModel::Modified:
        if (tree.mtime(a) != tree.mtime(b))
            return tree.mtime(a) < tree.mtime(b);
        return naturalLess(tree.name(a), tree.name(b));
    default:
        return QSortFilterProxyModel::lessThan(left, right);
    }
}

} // namespace asc::ui
