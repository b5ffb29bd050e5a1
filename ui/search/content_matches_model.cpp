// SPDX-License-Identifier: MIT
#include "content_matches_model.h"

#include "open/spec.h"

namespace asc::ui {

QVariant ContentMatchesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const ContentMatch &m = matches_[size_t(index.row())];
    if (role == Qt::ToolTipRole)
        return m.spec;
    if (role == Qt::TextAlignmentRole && index.column() == LineColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case EntryColumn: {
        // The path inside the file (the file is the one open); nested parts joined with "!/".
        const SpecParts parts = splitSpec(m.spec);
        QStringList inner;
        for (const QByteArray &part : parts.inner)
            inner << QString::fromUtf8(part);
        return inner.isEmpty() ? m.spec : inner.join(QStringLiteral("!/"));
    }
    case LineColumn:
        return m.line > 0 ? QVariant(m.line) : QVariant();
    case TextColumn:
        return m.text.left(500);
    default:
        return {};
    }
}

QVariant ContentMatchesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case EntryColumn:
        return tr("Entry");
    case LineColumn:
        return tr("Line");
    case TextColumn:
        return tr("Text");
    default:
        return {};
    }
}

void ContentMatchesModel::append(const QList<ContentMatch> &batch)
{
    if (batch.isEmpty())
        return;
    beginInsertRows({}, rowCount(), rowCount() + int(batch.size()) - 1);
    for (const ContentMatch &m : batch) {
        entries_.insert(m.spec);
        matches_.push_back(m);
    }
    endInsertRows();
}

void ContentMatchesModel::clear()
{
    beginResetModel();
    matches_.clear();
    entries_.clear();
    endResetModel();
}

} // namespace asc::ui
