// SPDX-License-Identifier: MIT
#include "entry_filter_model.h"

#include "entry_tree_model.h"

#include <QRegularExpression>

namespace asc::ui {

EntryFilterModel::EntryFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setRecursiveFilteringEnabled(true);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setSortRole(EntryTreeModel::SortRole);
    setFilterKeyColumn(EntryTreeModel::Name);
    // A new tree (the model resets with each file): the count starts again.
    connect(this, &QAbstractItemModel::modelReset, this, [this] {
        countedUpTo_ = 1;
        matches_ = 0;
    });
}

void EntryFilterModel::setFilterText(const QString &text)
{
    const bool glob = text.contains(QLatin1Char('*')) || text.contains(QLatin1Char('?'));
    bool ascii = true;
    for (QChar c : text)
        ascii = ascii && c.unicode() < 0x80;
    asciiNeedle_ = !glob && ascii ? text.toLatin1().toLower() : QByteArray();
    countedUpTo_ = 1;
    matches_ = 0;
    if (glob) {
        setFilterRegularExpression(QRegularExpression(
            QRegularExpression::wildcardToRegularExpression(text, QRegularExpression::UnanchoredWildcardConversion),
            QRegularExpression::CaseInsensitiveOption));
    } else {
        setFilterFixedString(text);
    }
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
    // A plain ASCII text (what is typed nearly always) is looked for in the tree's own name
    // bytes: no QString and QVariant made per row of a 100,000-entry tree on every keystroke.
    if (asciiNeedle_.isEmpty())
        return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
    const auto *model = static_cast<const EntryTreeModel *>(sourceModel());
    return nameMatches(model->nodeOf(model->index(sourceRow, 0, sourceParent)));
}

bool EntryFilterModel::nameMatches(int32_t node) const
{
    const auto *model = static_cast<const EntryTreeModel *>(sourceModel());
    if (node <= 0 || !model)
        return false;
    if (!asciiNeedle_.isEmpty())
        return containsFolded(model->tree().name(node), asciiNeedle_);
    return model->indexOf(node).data().toString().contains(filterRegularExpression());
}

uint64_t EntryFilterModel::matchCount() const
{
    const auto *model = static_cast<const EntryTreeModel *>(sourceModel());
    if (!model || filterRegularExpression().pattern().isEmpty())
        return 0;
    const EntryTree &tree = model->tree();
    for (; countedUpTo_ < tree.size(); ++countedUpTo_)
        matches_ += nameMatches(countedUpTo_);
    return matches_;
}

bool EntryFilterModel::hasChildren(const QModelIndex &parent) const
{
    // Without a filter, ask the source: the base class would build (and sort) a mapping for
    // every visible folder just to answer this.
    if (filterRegularExpression().pattern().isEmpty() && sourceModel())
        return sourceModel()->hasChildren(mapToSource(parent));
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
