// SPDX-License-Identifier: MIT
#pragma once
// The Benchmark workspace's Write tab: write strategies x file sizes into a directory, with the
// device bytes and amplification as a table and a chart (writebench in the window).

#include "io/cancel.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QTableWidget;

namespace asc::ui {

class BenchmarkChart;

class WriteTab : public QWidget {
    Q_OBJECT
public:
    explicit WriteTab(QWidget *parent = nullptr);
    ~WriteTab() override;

    // bufferTo > buffer sweeps N over the powers of two between them (0: just `buffer`).
    void run(const QString &directory, uint64_t from, uint64_t to, uint64_t buffer, bool atomic, int runs = 3, uint64_t bufferTo = 0);
    BenchmarkChart *chart() const { return chart_; }
    QTableWidget *table() const { return table_; }

Q_SIGNALS:
    void finished(bool ok);

private:
    BenchmarkChart *chart_;
    QTableWidget *table_;
    QLineEdit *directory_;
    QLabel *status_;
    CancelFlag cancel_;
    bool running_ = false;
};

} // namespace asc::ui
