#include "entry_filter_model.h"

#include "entry_tree_model.h"

#include <QRegularExpression>

namespace asc::ui {

EntryFilterModel::EntryFilterModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setRecursiveFilteringEnabled(true);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
    setSortRole(EntryTreeModel::SortRole);
    setFilterKeyColumn(EntryTreeModel::Name);
}

void EntryFilterModel::setFilterText(const QString &text)
{
    if (text.contains(QLatin1Char('*')) || text.contains(QLatin1Char('?'))) {
        setFilterRegularExpression(QRegularExpression(
            QRegularExpression::wildcardToRegularExpression(text, QRegularExpression::UnanchoredWildcardConversion),
            QRegularExpression::CaseInsensitiveOption));
    } else {
        setFilterFixedString(text);
    }
}

bool naturalLess(const QString &a, const QString &b)
{
    qsizetype i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            qsizetype ei = i, ej = j;
            while (ei < a.size() && a[ei].isDigit()) ++ei;
            while (ej < b.size() && b[ej].isDigit()) ++ej;
            // Compare digit runs by value: strip leading zeros, then length, then digits.
            qsizetype si = i, sj = j;
            while (si + 1 < ei && a[si] == QLatin1Char('0')) ++si;
            while (sj + 1 < ej && b[sj] == QLatin1Char('0')) ++sj;
            if (ei - si != ej - sj)
                return ei - si < ej - sj;
            for (; si < ei; ++si, ++sj)
                if (a[si] != b[sj])
                    return a[si] < b[sj];
            i = ei;
            j = ej;
            continue;
        }
        const QChar ca = a[i].toCaseFolded(), cb = b[j].toCaseFolded();
        if (ca != cb)
            return ca < cb;
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

bool EntryFilterModel::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const bool leftDir = left.data(EntryTreeModel::IsDirRole).toBool();
    const bool rightDir = right.data(EntryTreeModel::IsDirRole).toBool();
    if (leftDir != rightDir) // folders first, whichever the sort order
        return sortOrder() == Qt::AscendingOrder ? leftDir : rightDir;
    if (left.column() == EntryTreeModel::Name)
        return naturalLess(left.data(sortRole()).toString(), right.data(sortRole()).toString());
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace asc::ui
