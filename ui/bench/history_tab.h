// SPDX-License-Identifier: MIT
#pragma once
// The Benchmark workspace's History tab: every run of the session (and every result loaded),
// labels the user can edit ("before", "after"); one selected is shown, two are overlaid on the
// chart with each point's ratio and Welch's t-test verdict.

#include "bench/bench_result.h"

#include <QWidget>

class QListWidget;
class QPushButton;
class QTextEdit;

namespace asc::ui {

class BenchmarkChart;

class HistoryTab : public QWidget {
    Q_OBJECT
public:
    HistoryTab(BenchmarkChart *chart, QWidget *parent = nullptr);

    void add(const QString &name, const BenchResult &result);
    void rename(int index, const QString &name);
    void compare(int a, int b);
    const std::vector<std::pair<QString, BenchResult>> &runs() const { return runs_; }
    QString comparisonText() const;
    void clearComparison();

Q_SIGNALS:
    // One run selected: the workspace shows it (chart and statistics).
    void showRequested(const QString &name, const BenchResult &result);

private:
    QList<int> selectedRows() const;
    void setLabel(int row, const QString &label);

    BenchmarkChart *chart_;
    QListWidget *list_;
    QTextEdit *comparison_;
    QPushButton *compare_;
    std::vector<std::pair<QString, BenchResult>> runs_; // (the name legends use, the run)
    QStringList stamps_; // "14:03:12 — data.bin", kept through relabelling
};

} // namespace asc::ui
