// SPDX-License-Identifier: MIT
#pragma once
// The per-point statistics of benchmark results as a table (strategy, size, mean, sd, median,
// min, max, CPU, system calls); sortable through a proxy, copyable as Markdown or CSV.

#include "bench/bench_result.h"

#include <QAbstractTableModel>
#include <map>

namespace asc::ui {

class StatisticsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Strategy,
                  Buffer,
                  Pass,
                  Mean,
                  Sd,
                  Median,
                  Min,
                  Max,
                  Cpu,
                  Syscalls,
                  ColumnCount };
    explicit StatisticsModel(QObject *parent = nullptr);

    void setPoints(std::vector<BenchPoint> points);
    void addPoint(const BenchPoint &point);
    const std::vector<BenchPoint> &points() const { return points_; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    QString toMarkdown() const;
    QString toCsv() const;

private:
    void noteRunOrder(const QString &strategy);

    std::vector<BenchPoint> points_;
    std::map<QString, int> runOrder_; // strategy -> the order it first ran in
};

} // namespace asc::ui
