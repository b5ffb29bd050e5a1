// SPDX-License-Identifier: MIT
#include "statistics_model.h"

#include "io/units.h"

#include <algorithm>

namespace asc::ui {

StatisticsModel::StatisticsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void StatisticsModel::setPoints(std::vector<BenchPoint> points)
{
    beginResetModel();
    points_ = std::move(points);
    runOrder_.clear();
    for (const BenchPoint &p : points_)
        noteRunOrder(p.strategy);
    endResetModel();
}

void StatisticsModel::noteRunOrder(const QString &strategy)
{
    runOrder_.try_emplace(strategy, int(runOrder_.size()));
}

void StatisticsModel::addPoint(const BenchPoint &point)
{
    const int row = int(points_.size());
    beginInsertRows({}, row, row);
    points_.push_back(point);
    noteRunOrder(point.strategy);
    endInsertRows();
}

int StatisticsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(points_.size());
}

int StatisticsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

static double cpuSeconds(const BenchPoint &p)
{
    double total = 0;
    for (const Sample &s : p.runs)
        total += s.user + s.sys;
    return p.runs.empty() ? 0 : total / double(p.runs.size());
}

QVariant StatisticsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(points_.size()))
        return {};
    const BenchPoint &p = points_[size_t(index.row())];
    if (role == Qt::TextAlignmentRole)
        return index.column() >= Buffer ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role == Qt::UserRole) { // sort keys
        switch (index.column()) {
        // The strategies in the order the sweep ran them (read, pread, mmap: not by name), then
        // pass, then buffer size: what the table starts with.
        case Strategy: return (qulonglong(runOrder_.at(p.strategy)) << 48) | (qulonglong(std::min(p.pass, 127)) << 41) | qulonglong(std::min<uint64_t>(p.buffer, (1ULL << 41) - 1));
        case Buffer: return qulonglong(p.buffer);
        case Pass: return p.pass;
        case Mean: return p.mibps.mean;
        case Sd: return p.mibps.sd;
        case Median: return p.mibps.median;
        case Min: return p.mibps.min;
        case Max: return p.mibps.max;
        case Cpu: return cpuSeconds(p);
        case Syscalls: return p.medianSyscalls();
        }
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Strategy: return p.note.isEmpty() || role == Qt::DisplayRole ? p.strategy : p.strategy + QStringLiteral(": ") + p.note;
    case Buffer: return sizeLabel(p.buffer);
    case Pass: return p.pass;
    case Mean: return QString::number(p.mibps.mean, 'f', 1);
    case Sd: return QString::number(p.mibps.sd, 'f', 1);
    case Median: return QString::number(p.mibps.median, 'f', 1);
    case Min: return QString::number(p.mibps.min, 'f', 1);
    case Max: return QString::number(p.mibps.max, 'f', 1);
    case Cpu: return QStringLiteral("%1 s").arg(cpuSeconds(p), 0, 'f', 3);
    case Syscalls: return QString::number(p.medianSyscalls(), 'f', 0);
    }
    return {};
}

QVariant StatisticsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char *names[] = {"Strategy", "Buffer", "Pass", "Mean MiB/s", "SD", "Median", "Min", "Max", "CPU/run", "Syscalls"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

QString StatisticsModel::toMarkdown() const
{
    QString out = QStringLiteral("| strategy | buffer | pass | mean MiB/s | sd | median | min | max | CPU/run | syscalls |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int row = 0; row < rowCount(); ++row) {
        QStringList cells;
        for (int column = 0; column < ColumnCount; ++column)
            cells << data(index(row, column)).toString();
        out += QStringLiteral("| ") + cells.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
    }
    return out;
}

QString StatisticsModel::toCsv() const
{
    QString out = QStringLiteral("strategy,buffer,pass,mean_mibps,sd_mibps,median_mibps,min_mibps,max_mibps,cpu_seconds,syscalls\n");
    for (const BenchPoint &p : points_) {
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10\n")
                   .arg(p.strategy)
                   .arg(p.buffer)
                   .arg(p.pass)
                   .arg(p.mibps.mean, 0, 'f', 2)
                   .arg(p.mibps.sd, 0, 'f', 2)
                   .arg(p.mibps.median, 0, 'f', 2)
                   .arg(p.mibps.min, 0, 'f', 2)
                   .arg(p.mibps.max, 0, 'f', 2)
                   .arg(cpuSeconds(p), 0, 'f', 4)
                   .arg(p.medianSyscalls(), 0, 'f', 0);
    }
    return out;
}

} // namespace asc::ui
