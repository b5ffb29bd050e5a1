// SPDX-License-Identifier: MIT
#pragma once
// The reads of a trace as a table (one row per read: time, file, offset, length, thread, layer),
// a thin adapter over IoTrace.

#include "io_trace.h"

#include <QAbstractTableModel>

namespace asc::ui {

class IoTraceModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time,
                  File,
                  Offset,
                  Length,
                  Thread,
                  Layer,
                  ColumnCount };
    explicit IoTraceModel(QObject *parent = nullptr);
    void setTrace(const IoTrace *trace);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    const IoTrace *trace_ = nullptr;
};

} // namespace asc::ui
