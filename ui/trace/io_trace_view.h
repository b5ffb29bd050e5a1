// SPDX-License-Identifier: MIT
#pragma once
// The I/O view of one trace: the summary (reads, bytes read and distinct, re-reads, seeks), the
// plot (io_trace_plot.h), the reads as a table, and exports (PNG at 2x, SVG, JSON Lines). Shown
// in a window of its own: Tools > Trace I/O of Opening / of Reading the Selection.

#include "io_trace.h"

#include "io/result.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QTableView;

namespace asc::ui {

class IoTraceModel;
class IoTracePlot;

class IoTraceView : public QDialog {
    Q_OBJECT
public:
    explicit IoTraceView(IoTrace trace, QWidget *parent = nullptr);
    const IoTrace &trace() const { return trace_; }
    IoTracePlot *plot() const { return plot_; }
    IoTraceModel *model() const { return model_; }
    QString summaryText() const;
    // .png (2x), .svg: the plot; .jsonl/.json: one object per read (as `trace -o`). Atomic.
    Result<void> exportTo(const QString &path) const;

private:
    void showFile(int file);
    IoTrace trace_;
    IoTracePlot *plot_;
    IoTraceModel *model_;
    QLabel *summary_;
    QComboBox *files_;
};

// Two traces in one picture, one above the other (PNG at 2x or SVG): the faster read beside the
// slower, for a review or the README.
Result<void> exportTraceComparison(const IoTrace &upper, const IoTrace &lower, const QString &path);

} // namespace asc::ui
