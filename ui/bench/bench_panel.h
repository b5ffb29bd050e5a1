// SPDX-License-Identifier: MIT
#pragma once
// The benchmark workspace: configure a run for the open file or the selected entry (strategies
// grouped, the user's own commands, buffer-size range, runs, warm-ups, cache mode, passes), run it with
// progress, ETA and cancel, watch the chart fill live, read the statistics table, keep every run
// of the session, save/load results as the CLI's JSON, overlay two results with their ratios,
// export the chart (PNG at 2x, SVG, PDF) and the data (CSV, JSON).

#include "bench/bench_result.h"
#include "bench_job.h"
#include "bench_settings.h"
#include "history_tab.h"
#include "write_tab.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;
class QTableWidget;
class QTabWidget;
class QTextEdit;
class QVBoxLayout;

namespace asc::ui {

class BenchRun;
class BenchSettings;
class BenchmarkChart;
class CommandsList;
class HistoryTab;
class StatisticsModel;
class WriteTab;

class BenchPanel : public QWidget {
    Q_OBJECT
public:
    explicit BenchPanel(QWidget *parent = nullptr);
    ~BenchPanel() override;

    // `bytes`: the target's size when the caller knows it (an entry); -1 asks the file system,
    // which knows it for a plain file. A target smaller than the buffers gets a warning.
    void setTarget(const QString &spec, qint64 bytes = -1);
    QString sizeWarning() const { return settings_->sizeWarning(); }
    QString target() const { return settings_->target(); }
    BenchConfig config() const { return settings_->config(); }
    void setStrategies(const QStringList &names) { settings_->setStrategies(names); }
    void setSizes(uint64_t from, uint64_t to) { settings_->setSizes(from, to); }
    void setRuns(int runs, int warmup) { settings_->setRuns(runs, warmup); }
    BenchSettings *settings() const { return settings_; }
    void run();
    void cancel();
    bool isRunning() const;

    BenchmarkChart *chart() const { return chart_; }
    StatisticsModel *statistics() const { return statistics_; }
    const std::vector<std::pair<QString, BenchResult>> &history() const { return history_->runs(); }
    CommandsList *commands() const { return settings_->commands(); }
    // Overlays two results of the history on the chart and shows the ratios (like `compare`).
    void compareHistory(int a, int b);
    // The label of a run in the history (as editing it in the list does).
    void renameRun(int index, const QString &name);
    QString comparisonText() const;
    QString statusText() const; // what the line under the chart says (progress, the end of a run)
    Result<void> loadResult(const QString &path);
    Result<void> saveResult(const QString &path) const;
    Result<void> exportChart(const QString &path) const;
    Result<void> exportData(const QString &path) const; // .csv or .json
    // The Write tab: write strategies x file sizes into a directory, amplification table and chart.
    // bufferTo > buffer sweeps N over the powers of two between them (0: just `buffer`).
    void runWrites(const QString &directory, uint64_t from, uint64_t to, uint64_t buffer, bool atomic, int runs = 3, uint64_t bufferTo = 0);
    BenchmarkChart *writeChart() const { return writes_->chart(); }
    QTableWidget *writeTable() const { return writes_->table(); }

Q_SIGNALS:
    // After each finished point of a run: `done` of `total`.
    void progressed(int done, int total);
    void runFinished(bool ok);
    void writesFinished(bool ok);

private:
    void finished(const BenchOutcome &outcome, double seconds);
    void showResult(const QString &name, const BenchResult &result);
    void updateButtons();

    BenchSettings *settings_;
    QPushButton *runButton_;
    QPushButton *cancelButton_;
    QProgressBar *progress_;
    QLabel *status_;
    QTabWidget *tabs_;
    BenchmarkChart *chart_;
    StatisticsModel *statistics_;
    QTableView *table_;
    HistoryTab *history_;
    WriteTab *writes_;
    BenchRun *run_;
    QStringList unrunnable_; // ticked commands that do not parse, said when the run ends
};

} // namespace asc::ui
