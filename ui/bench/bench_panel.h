// SPDX-License-Identifier: MIT
#pragma once
// The benchmark workspace: configure a run for the open file or the selected entry (strategies
// grouped, buffer-size range, runs, warm-ups, cache mode, passes), run it on a worker with
// progress, ETA and cancel, watch the chart fill live, read the statistics table, keep every run
// of the session, save/load results as the CLI's JSON, overlay two results with their ratios,
// export the chart (PNG at 2x, SVG, PDF) and the data (CSV, JSON).

#include "bench/bench_result.h"
#include "bench_job.h"

#include <QElapsedTimer>
#include <QPointer>
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

class BenchmarkChart;
class StatisticsModel;

class BenchPanel : public QWidget {
    Q_OBJECT
public:
    explicit BenchPanel(QWidget *parent = nullptr);
    ~BenchPanel() override;

    // `bytes`: the target's size when the caller knows it (an entry); -1 asks the file system,
    // which knows it for a plain file. A target smaller than the buffers gets a warning.
    void setTarget(const QString &spec, qint64 bytes = -1);
    QString sizeWarning() const;
    QString target() const;
    BenchConfig config() const;
    void setStrategies(const QStringList &names);
    void setSizes(uint64_t from, uint64_t to);
    void setRuns(int runs, int warmup);
    void run();
    void cancel();
    bool isRunning() const { return running_; }

    BenchmarkChart *chart() const { return chart_; }
    StatisticsModel *statistics() const { return statistics_; }
    const std::vector<std::pair<QString, BenchResult>> &history() const { return history_; }
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
    BenchmarkChart *writeChart() const { return writeChart_; }
    QTableWidget *writeTable() const { return writeTable_; }

Q_SIGNALS:
    // After each finished point of a run: `done` of `total`.
    void progressed(int done, int total);
    void runFinished(bool ok);
    void writesFinished(bool ok);

private:
    void buildStrategyBoxes(QVBoxLayout *layout);
    void finished(BenchOutcome outcome);
    void addToHistory(const QString &name, const BenchResult &result);
    void showResult(const QString &name, const BenchResult &result);
    void updateButtons();
    void updateSizeWarning();
    void restoreSettings();
    void saveSettings() const;

    QLineEdit *target_;
    std::vector<QCheckBox *> strategies_;
    QComboBox *from_;
    QComboBox *to_;
    QSpinBox *runs_;
    QSpinBox *warmup_;
    QComboBox *cache_;
    QSpinBox *passes_;
    QPushButton *runButton_;
    QPushButton *cancelButton_;
    QProgressBar *progress_;
    QLabel *status_;
    QLabel *sizeWarning_;
    qint64 targetBytes_ = -1;
    QTabWidget *tabs_;
    BenchmarkChart *chart_;
    StatisticsModel *statistics_;
    QTableView *table_;
    QListWidget *historyList_;
    QTextEdit *comparison_;
    BenchmarkChart *writeChart_;
    QTableWidget *writeTable_;
    QLineEdit *writeDir_;
    QLabel *writeStatus_;
    CancelFlag writeCancel_;
    bool writing_ = false;
    QWidget *buildWriteTab();
    std::vector<std::pair<QString, BenchResult>> history_;
    std::optional<BenchJob> job_;
    QPointer<QObject> liveWatcher_; // announces the running job's points as they come
    BenchConfig running_config_;
    QElapsedTimer clock_;
    bool running_ = false;
};

} // namespace asc::ui
