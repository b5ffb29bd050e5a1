// SPDX-License-Identifier: MIT
#include "bench_panel.h"

#include "bench/bench_runner.h"
#include "bench_run.h"
#include "bench_settings.h"
#include "benchmark_chart.h"
#include "commands_list.h"
#include "history_tab.h"
#include "io/atomic_file.h"
#include "statistics_model.h"
#include "write_tab.h"

#include <QApplication>
#include <QChartView>
#include <QClipboard>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTime>
#include <QVBoxLayout>

namespace asc::ui {

static QString QFileInfoName(const QString &path)
{
    return path.section(QLatin1Char('/'), -1);
}

BenchPanel::BenchPanel(QWidget *parent)
    : QWidget(parent),
      chart_(new BenchmarkChart(this)),
      statistics_(new StatisticsModel(this)),
      run_(new BenchRun(this))
{
    auto *layout = new QVBoxLayout(this);
    settings_ = new BenchSettings(this);
    // Run, Cancel and the progress sit above everything, always visible (never at the bottom of a
    // scrolled list of strategies).
    runButton_ = new QPushButton(QIcon::fromTheme(QStringLiteral("media-playback-start")), tr("Run"), this);
    runButton_->setObjectName(QStringLiteral("benchRun"));
    runButton_->setToolTip(tr("Run the benchmark (F5)"));
    cancelButton_ = new QPushButton(tr("Cancel"), this);
    cancelButton_->setObjectName(QStringLiteral("benchCancel"));
    progress_ = new QProgressBar(this);
    progress_->setMaximumWidth(240);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    status_->setMinimumWidth(120);
    auto *top = new QHBoxLayout;
    top->addWidget(runButton_);
    top->addWidget(cancelButton_);
    top->addWidget(progress_);
    top->addWidget(status_, 1);
    layout->addLayout(top);
    connect(runButton_, &QPushButton::clicked, this, &BenchPanel::run);
    connect(cancelButton_, &QPushButton::clicked, this, &BenchPanel::cancel);

    tabs_ = new QTabWidget(this);
    auto *chartPage = new QWidget(tabs_);
    auto *chartLayout = new QVBoxLayout(chartPage);
    chartLayout->addWidget(chart_->createView(chartPage), 1);
    // Two rows of buttons under the chart: one would force a wide window.
    auto *chartButtons = new QHBoxLayout;
    auto *resultButtons = new QHBoxLayout;
    auto addButton = [&](QHBoxLayout *row, const QString &text, auto slot) {
        auto *b = new QPushButton(text, chartPage);
        connect(b, &QPushButton::clicked, this, slot);
        row->addWidget(b);
    };
    addButton(chartButtons, tr("Export Chart…"), [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"), QStringLiteral("throughput.png"), tr("Images (*.png *.svg *.pdf)"));
        if (!path.isEmpty())
            if (auto ok = exportChart(path); !ok)
                status_->setText(ok.error().toString());
    });
    addButton(chartButtons, tr("Copy Chart"), [this] {
        QImage image;
        image.loadFromData(chart_->renderPng(QSize(1200, 700)), "PNG");
        QApplication::clipboard()->setImage(image);
    });
    addButton(resultButtons, tr("Save Result…"), [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save Result"), QStringLiteral("result.json"), tr("Results (*.json)"));
        if (!path.isEmpty())
            if (auto ok = saveResult(path); !ok)
                status_->setText(ok.error().toString());
    });
    addButton(resultButtons, tr("Load Result…"), [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Load Result"), {}, tr("Results (*.json)"));
        if (!path.isEmpty())
            if (auto ok = loadResult(path); !ok)
                status_->setText(ok.error().toString());
    });
    addButton(resultButtons, tr("Export Data…"), [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Data"), QStringLiteral("result.csv"), tr("Data (*.csv *.json)"));
        if (!path.isEmpty())
            if (auto ok = exportData(path); !ok)
                status_->setText(ok.error().toString());
    });
    chartButtons->addStretch(1);
    resultButtons->addStretch(1);
    chartLayout->addLayout(chartButtons);
    chartLayout->addLayout(resultButtons);
    tabs_->addTab(chartPage, tr("Chart"));

    auto *tablePage = new QWidget(tabs_);
    auto *tableLayout = new QVBoxLayout(tablePage);
    auto *sorted = new QSortFilterProxyModel(this);
    sorted->setSourceModel(statistics_);
    sorted->setSortRole(Qt::UserRole);
    table_ = new QTableView(tablePage);
    table_->setObjectName(QStringLiteral("benchStatistics"));
    table_->setModel(sorted);
    table_->setSortingEnabled(true);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tableLayout->addWidget(table_, 1);
    auto *tableButtons = new QHBoxLayout;
    addButton(tableButtons, tr("Copy as Markdown"), [this] { QApplication::clipboard()->setText(statistics_->toMarkdown()); });
    addButton(tableButtons, tr("Copy as CSV"), [this] { QApplication::clipboard()->setText(statistics_->toCsv()); });
    tableLayout->addLayout(tableButtons);
    tabs_->addTab(tablePage, tr("Statistics"));

    history_ = new HistoryTab(chart_, tabs_);
    connect(history_, &HistoryTab::showRequested, this, &BenchPanel::showResult);
    tabs_->addTab(history_, tr("History"));
    writes_ = new WriteTab(tabs_);
    connect(writes_, &WriteTab::finished, this, &BenchPanel::writesFinished);
    tabs_->addTab(writes_, tr("Write"));

    // The settings scroll: a long strategy list must not force a tall window.
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(settings_);
    scroll->setWidgetResizable(true);
    // It starts as wide as the settings want: at 1200 px the combos, the target and the
    // small-target warning were cut, and focusing a combo scrolled the labels away. Only a
    // window too narrow for them (800 px) scrolls sideways.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    const int chrome = scroll->verticalScrollBar()->sizeHint().width() + 2 * scroll->frameWidth();
    const int wanted = settings_->sizeHint().width() + chrome;
    // Never narrower than the settings can be laid out: at 800x600 the panel was cut on the
    // right (the "to" size, the warning) behind a sideways scroll bar; the chart gives way.
    scroll->setMinimumWidth(settings_->minimumSizeHint().width() + chrome);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(scroll);
    splitter->addWidget(tabs_);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({wanted, 4 * wanted});
    layout->addWidget(splitter, 1);
    // The statistics start in run order (strategy, then buffer size), not sorted descending.
    table_->sortByColumn(0, Qt::AscendingOrder);
    connect(run_, &BenchRun::pointReady, this, [this](const BenchPoint &point) {
        chart_->addPoint(point, run_->config());
        statistics_->addPoint(point);
    });
    connect(run_, &BenchRun::progressed, this, [this](int done, int total, const QString &text) {
        progress_->setRange(0, total);
        progress_->setValue(done);
        status_->setText(text);
        Q_EMIT progressed(done, total);
    });
    connect(run_, &BenchRun::finished, this, &BenchPanel::finished);
    updateButtons();
}

BenchPanel::~BenchPanel() = default; // the run's destructor stops and waits for it

void BenchPanel::runWrites(const QString &directory, uint64_t from, uint64_t to, uint64_t buffer, bool atomic, int runs, uint64_t bufferTo)
{
    writes_->run(directory, from, to, buffer, atomic, runs, bufferTo);
}

void BenchPanel::setTarget(const QString &spec, qint64 bytes)
{
    if (!run_->isRunning())
        settings_->setTarget(spec, bytes);
}

void BenchPanel::run()
{
    if (run_->isRunning())
        return;
    const BenchConfig config = this->config();
    QStringList problems;
    settings_->commands()->commands(&problems);
    if (config.spec.isEmpty()) {
        status_->setText(tr("Choose a target first: open a file, select an entry, or type a SPEC."));
        return;
    }
    if (config.strategies.isEmpty() && config.commands.empty()) {
        status_->setText(problems.isEmpty() ? tr("Check a strategy or a command to run.")
                                            : tr("Nothing can run: %1").arg(problems.join(QStringLiteral("; "))));
        return;
    }
    // A command that cannot run is left out and said so, as the worker does with a strategy
    // that does not apply to the target: the rest of what was ticked runs.
    unrunnable_ = problems;
    settings_->save();
    // Strategies that do not apply to this target are left out, and said so when the run ends.
    chart_->clear();
    statistics_->setPoints({});
    tabs_->setCurrentIndex(0);
    progress_->setRange(0, 0);
    status_->setText(config.commands.empty() ? tr("Starting…") : tr("Starting… (commands run in this process, outside the sandbox: they are your programs)"));
    run_->start(config);
    updateButtons();
}

void BenchPanel::cancel()
{
    if (!run_->isRunning())
        return;
    run_->stop();
    status_->setText(tr("Cancelling…"));
}

bool BenchPanel::isRunning() const
{
    return run_->isRunning();
}

void BenchPanel::renameRun(int index, const QString &name)
{
    history_->rename(index, name);
}

QString BenchPanel::statusText() const
{
    return status_->text();
}

void BenchPanel::finished(const BenchOutcome &outcome, double seconds)
{
    const bool cancelled = outcome.error && outcome.error->kind == ErrorKind::Cancelled;
    // Cancelled, the bar keeps how far the run got (it fell to 0 %).
    if (!cancelled) {
        progress_->setRange(0, 1);
        progress_->setValue(outcome.result ? 1 : 0);
    }
    if (outcome.result) {
        // Time first: in a legend cut short, two runs of one file still differ.
        const QString name = tr("%1 — %2").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), QFileInfoName(outcome.result->spec));
        history_->add(name, *outcome.result);
        showResult(name, *outcome.result);
        const QStringList summary = summaryLines(*outcome.result);
        QString text = tr("Done in %1 s. %2").arg(seconds, 0, 'f', 1).arg(summary.isEmpty() ? QString() : summary.first());
        for (const QString &note : outcome.result->notes)
            text += QLatin1Char(' ') + note + QLatin1Char('.');
        const QStringList skipped = unrunnable_ + outcome.result->skipped;
        if (!skipped.isEmpty())
            text += QLatin1Char(' ') + tr("Skipped: %1.").arg(skipped.join(QStringLiteral("; ")));
        status_->setText(text);
    } else if (cancelled) {
        status_->setText(tr("Cancelled after %1 of %2 runs: the chart keeps the points measured so far.").arg(progress_->value()).arg(progress_->maximum()));
    } else if (outcome.error) {
        QString text = outcome.error->toString();
        if (!unrunnable_.isEmpty())
            text += QLatin1Char(' ') + tr("Skipped: %1.").arg(unrunnable_.join(QStringLiteral("; ")));
        status_->setText(text);
    }
    updateButtons();
    Q_EMIT runFinished(outcome.result.has_value());
}

void BenchPanel::showResult(const QString &name, const BenchResult &result)
{
    chart_->setResults({{name, result}});
    statistics_->setPoints(result.points);
    history_->clearComparison();
}

void BenchPanel::compareHistory(int a, int b)
{
    history_->compare(a, b);
}

QString BenchPanel::comparisonText() const
{
    return history_->comparisonText();
}

Result<void> BenchPanel::loadResult(const QString &path)
{
    auto result = loadBenchResult(path);
    if (!result)
        return std::move(result).error();
    const QString name = QFileInfoName(path);
    history_->add(name, *result);
    showResult(name, *result);
    return {};
}

Result<void> BenchPanel::saveResult(const QString &path) const
{
    if (history().empty())
        return Error::make(ErrorKind::Usage, path, tr("no finished run to save"));
    return writeFileAtomically(path, QJsonDocument(toJson(history().back().second)).toJson(QJsonDocument::Indented));
}

Result<void> BenchPanel::exportChart(const QString &path) const
{
    return chart_->exportTo(path);
}

Result<void> BenchPanel::exportData(const QString &path) const
{
    if (history().empty())
        return Error::make(ErrorKind::Usage, path, tr("no finished run to export"));
    if (path.endsWith(QLatin1String(".json")))
        return saveResult(path);
    return writeFileAtomically(path, toCsv(history().back().second));
}

void BenchPanel::updateButtons()
{
    runButton_->setEnabled(!run_->isRunning());
    cancelButton_->setEnabled(run_->isRunning());
}

} // namespace asc::ui
