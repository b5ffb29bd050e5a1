// SPDX-License-Identifier: MIT
#include "io_trace_model.h"

#include "io/units.h"

#include <QFileInfo>

namespace asc::ui {

IoTraceModel::IoTraceModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void IoTraceModel::setTrace(const IoTrace *trace)
{
    beginResetModel();
    trace_ = trace;
    endResetModel();
}

int IoTraceModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !trace_ ? 0 : int(trace_->records.size());
}

int IoTraceModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant IoTraceModel::data(const QModelIndex &index, int role) const
{
    if (!trace_ || !index.isValid() || index.row() >= rowCount())
        return {};
    const TraceRecord &r = trace_->records[size_t(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Time: return QStringLiteral("%1 ms").arg(double(r.tNs) / 1e6, 0, 'f', 3);
        case File: return QFileInfo(trace_->files.value(r.file)).fileName();
        case Offset: return QString::number(r.offset);
        case Length: return sizeLabel(r.length);
        case Thread: return r.thread;
        case Layer: return QString::fromUtf8(r.layer);
        }
    } else if (role == Qt::ToolTipRole && index.column() == File) {
        return trace_->files.value(r.file);
    } else if (role == Qt::TextAlignmentRole && index.column() != File && index.column() != Layer) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant IoTraceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Time: return tr("Time");
    case File: return tr("File");
    case Offset: return tr("Offset");
    case Length: return tr("Length");
    case Thread: return tr("Thread");
    case Layer: return tr("Layer");
    }
    return {};
}

} // namespace asc::ui
