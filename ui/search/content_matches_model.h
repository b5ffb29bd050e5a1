// SPDX-License-Identifier: MIT
#pragma once
// Find in Contents' results as a table: Entry, Line, Text. A thin adapter over the matches the
// job reports, appended as they come.

#include "content_search_job.h"

#include <QAbstractTableModel>
#include <vector>

namespace asc::ui {

class ContentMatchesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { EntryColumn,
                  LineColumn,
                  TextColumn,
                  ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : int(matches_.size()); }
    int columnCount(const QModelIndex &parent = {}) const override { return parent.isValid() ? 0 : ColumnCount; }
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    void append(const QList<ContentMatch> &batch);
    void clear();
    const ContentMatch &match(int row) const { return matches_[size_t(row)]; }
    // How many different entries matched.
    int entries() const { return int(entries_.size()); }

private:
    std::vector<ContentMatch> matches_;
    QSet<QString> entries_;
};

} // namespace asc::ui
