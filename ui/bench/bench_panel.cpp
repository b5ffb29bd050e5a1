// SPDX-License-Identifier: MIT
#include "io/task_pool.h"
#include "bench_panel.h"

#include "when_finished.h"

#include "bench/bench_runner.h"
#include "bench/comparison.h"
#include "benchmark_chart.h"
#include "io/atomic_file.h"
#include "statistics_model.h"
#include "units.h"

#include <QApplication>
#include <QCheckBox>
#include <QChartView>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <QTextEdit>
#include <QTime>
#include <QVBoxLayout>
#include <map>

namespace asc::ui {

static QString QFileInfoName(const QString &path)
{
    return path.section(QLatin1Char('/'), -1);
}

BenchPanel::BenchPanel(QWidget *parent)
    : QWidget(parent),
      chart_(new BenchmarkChart(this)),
      statistics_(new StatisticsModel(this)),
      writeChart_(new BenchmarkChart(this))
{
    auto *layout = new QVBoxLayout(this);
    auto *settings = new QWidget(this);
    auto *settingsLayout = new QVBoxLayout(settings);
    settingsLayout->setContentsMargins(0, 0, 0, 0);
    auto *form = new QFormLayout;
    target_ = new QLineEdit(settings);
    target_->setPlaceholderText(tr("file or SPEC to read"));
    form->addRow(tr("Target"), target_);
    from_ = new QComboBox(settings);
    to_ = new QComboBox(settings);
    for (int k = 12; k <= 24; ++k) {
        from_->addItem(sizeLabel(1ULL << k), QVariant::fromValue(qulonglong(1ULL << k)));
        to_->addItem(sizeLabel(1ULL << k), QVariant::fromValue(qulonglong(1ULL << k)));
    }
    from_->setCurrentIndex(0);
    to_->setCurrentIndex(to_->count() - 1);
    auto *range = new QHBoxLayout;
    range->addWidget(from_);
    range->addWidget(new QLabel(tr("to"), settings));
    range->addWidget(to_);
    form->addRow(tr("Buffer sizes"), range);
    runs_ = new QSpinBox(settings);
    runs_->setRange(1, 1000);
    runs_->setValue(3);
    warmup_ = new QSpinBox(settings);
    warmup_->setRange(0, 100);
    warmup_->setValue(1);
    auto *repeat = new QHBoxLayout;
    repeat->addWidget(runs_);
    repeat->addWidget(new QLabel(tr("warm-ups"), settings));
    repeat->addWidget(warmup_);
    form->addRow(tr("Runs"), repeat);
    cache_ = new QComboBox(settings);
    cache_->addItem(tr("warm (in page cache)"), QStringLiteral("warm"));
    cache_->addItem(tr("cold (evicted before every run)"), QStringLiteral("cold"));
    form->addRow(tr("Cache"), cache_);
    passes_ = new QSpinBox(settings);
    passes_->setRange(1, 10);
    form->addRow(tr("Passes"), passes_);
    settingsLayout->addLayout(form);
    // Said before the run, not discovered in a flat chart afterwards.
    sizeWarning_ = new QLabel(settings);
    sizeWarning_->setObjectName(QStringLiteral("benchSizeWarning"));
    sizeWarning_->setWordWrap(true);
    sizeWarning_->setStyleSheet(QStringLiteral("QLabel { color: #b35900; }"));
    sizeWarning_->hide();
    settingsLayout->addWidget(sizeWarning_);
    buildStrategyBoxes(settingsLayout);
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
    settingsLayout->addStretch(1);
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

    auto *historyPage = new QWidget(tabs_);
    auto *historyLayout = new QVBoxLayout(historyPage);
    historyList_ = new QListWidget(historyPage);
    historyList_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    comparison_ = new QTextEdit(historyPage);
    comparison_->setReadOnly(true);
    auto *compare = new QPushButton(tr("Compare"), historyPage);
    compare->setObjectName(QStringLiteral("historyCompare"));
    compare->setToolTip(tr("Overlay the two selected runs and test each point's difference"));
    compare->setEnabled(false);
    auto *historyButtons = new QHBoxLayout;
    auto *historyHint = new QLabel(tr("Runs of this session — select one to show it, two to compare; double-click a name to edit it:"), historyPage);
    historyHint->setWordWrap(true);
    historyButtons->addWidget(historyHint, 1);
    historyButtons->addWidget(compare);
    historyLayout->addLayout(historyButtons);
    historyLayout->addWidget(historyList_, 1);
    historyLayout->addWidget(comparison_, 1);
    auto selectedRuns = [this] {
        QList<int> rows;
        for (const QModelIndex &index : historyList_->selectionModel()->selectedRows())
            rows << index.row();
        std::sort(rows.begin(), rows.end());
        return rows;
    };
    connect(historyList_, &QListWidget::itemSelectionChanged, this, [this, compare, selectedRuns] {
        const QList<int> rows = selectedRuns();
        compare->setEnabled(rows.size() == 2);
        if (rows.size() == 1)
            showResult(history_[size_t(rows[0])].first, history_[size_t(rows[0])].second);
        else if (rows.size() == 2)
            compareHistory(rows[0], rows[1]);
    });
    connect(compare, &QPushButton::clicked, this, [this, selectedRuns] {
        const QList<int> rows = selectedRuns();
        if (rows.size() == 2)
            compareHistory(rows[0], rows[1]);
    });
    // A run's label is the user's to edit ("before the fix", "after"): legends and comparisons use it.
    connect(historyList_, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        const int row = historyList_->row(item);
        if (row >= 0 && size_t(row) < history_.size() && !item->text().trimmed().isEmpty())
            history_[size_t(row)].first = item->text().trimmed();
    });
    tabs_->addTab(historyPage, tr("History"));
    tabs_->addTab(buildWriteTab(), tr("Write"));

    // The settings scroll: a long strategy list must not force a tall window.
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(settings);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    scroll->setMinimumWidth(std::min(settings->sizeHint().width() + 20, 260));
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(scroll);
    splitter->addWidget(tabs_);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);
    // The statistics start in run order (strategy, then buffer size), not sorted descending.
    table_->sortByColumn(0, Qt::AscendingOrder);
    restoreSettings();
    connect(target_, &QLineEdit::textEdited, this, [this] {
        targetBytes_ = -1;
        updateSizeWarning();
    });
    connect(from_, &QComboBox::currentIndexChanged, this, &BenchPanel::updateSizeWarning);
    connect(to_, &QComboBox::currentIndexChanged, this, &BenchPanel::updateSizeWarning);
    updateButtons();
}

// What a user set up last time is what they get: the sweep, repetitions, cache mode, passes,
// strategies and the write tab's folder (not the target: that is the open file).
void BenchPanel::restoreSettings()
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("benchmark"));
    if (settings.contains(QStringLiteral("from")))
        setSizes(settings.value(QStringLiteral("from")).toULongLong(), settings.value(QStringLiteral("to")).toULongLong());
    runs_->setValue(settings.value(QStringLiteral("runs"), runs_->value()).toInt());
    warmup_->setValue(settings.value(QStringLiteral("warmup"), warmup_->value()).toInt());
    passes_->setValue(settings.value(QStringLiteral("passes"), passes_->value()).toInt());
    const int cache = cache_->findData(settings.value(QStringLiteral("cache")));
    if (cache >= 0)
        cache_->setCurrentIndex(cache);
    if (settings.contains(QStringLiteral("strategies")))
        setStrategies(settings.value(QStringLiteral("strategies")).toStringList());
    const QString folder = settings.value(QStringLiteral("writeDirectory")).toString();
    if (!folder.isEmpty() && QFileInfo(folder).isDir())
        writeDir_->setText(folder);
}

void BenchPanel::saveSettings() const
{
    const BenchConfig c = config();
    QSettings settings;
    settings.beginGroup(QStringLiteral("benchmark"));
    settings.setValue(QStringLiteral("from"), QVariant::fromValue(qulonglong(from_->currentData().toULongLong())));
    settings.setValue(QStringLiteral("to"), QVariant::fromValue(qulonglong(to_->currentData().toULongLong())));
    settings.setValue(QStringLiteral("runs"), c.runs);
    settings.setValue(QStringLiteral("warmup"), c.warmup);
    settings.setValue(QStringLiteral("passes"), c.passes);
    settings.setValue(QStringLiteral("cache"), cache_->currentData());
    settings.setValue(QStringLiteral("strategies"), c.strategies);
    settings.setValue(QStringLiteral("writeDirectory"), writeDir_->text());
}

QString BenchPanel::sizeWarning() const
{
    return sizeWarning_->isHidden() ? QString() : sizeWarning_->text();
}

void BenchPanel::updateSizeWarning()
{
    qint64 bytes = targetBytes_;
    const QString spec = target_->text().trimmed();
    if (bytes < 0 && !spec.contains(QStringLiteral("!/")) && QFileInfo(spec).isFile())
        bytes = QFileInfo(spec).size();
    const uint64_t largest = std::max(from_->currentData().toULongLong(), to_->currentData().toULongLong());
    if (bytes < 0 || uint64_t(bytes) >= largest) {
        sizeWarning_->hide();
        return;
    }
    uint64_t whole = 4096; // the smallest buffer that reads the whole target in one call
    while (whole < uint64_t(bytes))
        whole <<= 1;
    sizeWarning_->setText(tr("The target is only %1: every buffer from %2 up reads it in one call, so the points above %2 "
                             "measure the same thing. Choose a larger file or entry, or a smaller range.")
                              .arg(sizeLabel(uint64_t(bytes)), sizeLabel(whole)));
    sizeWarning_->show();
}

QWidget *BenchPanel::buildWriteTab()
{
    auto *page = new QWidget(this);
    auto *layout = new QVBoxLayout(page);
    // Three short rows, not one long one: the tab stays usable in a small window.
    auto *form = new QGridLayout;
    writeDir_ = new QLineEdit(QDir::homePath(), page);
    writeDir_->setToolTip(tr("A directory on the filesystem to measure; files go to a private folder that is removed afterwards"));
    auto *sizeFrom = new QComboBox(page);
    auto *sizeTo = new QComboBox(page);
    auto *buffer = new QComboBox(page);
    auto *bufferTo = new QComboBox(page);
    for (int k = 10; k <= 24; ++k) {
        sizeFrom->addItem(sizeLabel(1ULL << k), QVariant::fromValue(qulonglong(1ULL << k)));
        sizeTo->addItem(sizeLabel(1ULL << k), QVariant::fromValue(qulonglong(1ULL << k)));
        buffer->addItem(sizeLabel(1ULL << k), QVariant::fromValue(qulonglong(1ULL << k)));
        bufferTo->addItem(sizeLabel(1ULL << k), QVariant::fromValue(qulonglong(1ULL << k)));
    }
    sizeTo->setCurrentIndex(10);
    buffer->setCurrentIndex(3);
    bufferTo->setCurrentIndex(3);
    bufferTo->setToolTip(tr("Sweep N up to this size: the strategies that use N run at each power of two"));
    auto *atomic = new QCheckBox(tr("atomic replace"), page);
    auto *run = new QPushButton(tr("Run Writes"), page);
    auto *browse = new QPushButton(tr("Browse…"), page);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString chosen = QFileDialog::getExistingDirectory(this, tr("Directory to Measure"), writeDir_->text());
        if (!chosen.isEmpty())
            writeDir_->setText(chosen);
    });
    auto row = [page](std::initializer_list<QWidget *> widgets) {
        auto *line = new QHBoxLayout;
        for (QWidget *w : widgets)
            line->addWidget(w);
        line->addStretch(1);
        return line;
    };
    form->addWidget(new QLabel(tr("Directory"), page), 0, 0);
    auto *dirRow = new QHBoxLayout;
    dirRow->addWidget(writeDir_, 1);
    dirRow->addWidget(browse);
    form->addLayout(dirRow, 0, 1);
    form->addWidget(new QLabel(tr("Files"), page), 1, 0);
    form->addLayout(row({sizeFrom, new QLabel(tr("to"), page), sizeTo, new QLabel(tr("buffer N"), page), buffer, new QLabel(tr("to"), page), bufferTo}), 1, 1);
    form->addLayout(row({atomic, run}), 2, 1);
    layout->addLayout(form);
    writeStatus_ = new QLabel(page);
    writeStatus_->setWordWrap(true);
    layout->addWidget(writeStatus_);
    // The table above the chart, both the tab's full width: side by side, the chart was too
    // narrow for its legend's names and its axis labels.
    auto *split = new QSplitter(Qt::Vertical, page);
    writeTable_ = new QTableWidget(split);
    split->addWidget(writeTable_);
    split->addWidget(writeChart_->createView(split));
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    connect(run, &QPushButton::clicked, this, [=, this] {
        runWrites(writeDir_->text(), sizeFrom->currentData().toULongLong(), sizeTo->currentData().toULongLong(),
                  buffer->currentData().toULongLong(), atomic->isChecked(), 3, bufferTo->currentData().toULongLong());
    });
    return page;
}

void BenchPanel::runWrites(const QString &directory, uint64_t from, uint64_t to, uint64_t buffer, bool atomic, int runs, uint64_t bufferTo)
{
    if (writing_)
        return;
    writing_ = true;
    writeDir_->setText(directory);
    saveSettings();
    WriteBenchConfig config;
    config.directory = directory;
    for (uint64_t s = std::min(from, to); s <= std::max(from, to); s <<= 1)
        config.fileSizes.push_back(s);
    config.buffer = buffer;
    std::vector<uint64_t> buffers;
    for (uint64_t b = buffer; b <= std::max(buffer, bufferTo); b <<= 1)
        buffers.push_back(b);
    config.atomic = atomic;
    config.runs = runs;
    writeCancel_ = CancelFlag();
    writeStatus_->setText(tr("Writing…"));
    const CancelFlag cancel = writeCancel_;
    QPointer<BenchPanel> self(this);
    auto sweep = QtConcurrent::run(taskPool(), [config, buffers, cancel] { return runWriteBenchSweep(config, buffers, cancel); });
    whenFinished(this, std::move(sweep), [self](Result<WriteBenchResult> result) {
        if (!self)
            return;
        self->writing_ = false;
        if (!result) {
            self->writeStatus_->setText(result.error().toString());
            Q_EMIT self->writesFinished(false);
            return;
        }
        // Rows: file sizes; columns: strategies; cells: device bytes and amplification.
        const QStringList names = writeSeriesNames(*result);
        QStringList strategies;
        std::vector<uint64_t> sizes;
        for (const WritePoint &p : result->points) {
            if (const QString &column = names[qsizetype(&p - result->points.data())]; !strategies.contains(column))
                strategies << column;
            if (std::find(sizes.begin(), sizes.end(), p.fileSize) == sizes.end())
                sizes.push_back(p.fileSize);
        }
        QTableWidget *table = self->writeTable_;
        table->clear();
        table->setRowCount(int(sizes.size()));
        table->setColumnCount(int(strategies.size()));
        table->setHorizontalHeaderLabels(strategies);
        QStringList rowLabels;
        for (uint64_t s : sizes)
            rowLabels << sizeLabel(s);
        table->setVerticalHeaderLabels(rowLabels);
        for (const WritePoint &p : result->points) {
            const int row = int(std::find(sizes.begin(), sizes.end(), p.fileSize) - sizes.begin());
            const int column = int(strategies.indexOf(names[qsizetype(&p - result->points.data())]));
            auto *item = new QTableWidgetItem(p.deviceBytes < 0 ? tr("n/a")
                                                                : QStringLiteral("%1 (x%2)").arg(sizeLabel(uint64_t(p.deviceBytes))).arg(p.amplification, 0, 'f', 1));
            item->setToolTip(tr("%1 write calls, %2 bytes passed to them").arg(p.writeCalls).arg(p.bytesToWriteCalls));
            table->setItem(row, column, item);
        }
        table->resizeColumnsToContents();
        self->writeChart_->setAmplification(*result);
        self->writeStatus_->setText(tr("Device bytes from %1 on %2. %3").arg(result->deviceBytesSource, result->filesystem, result->warnings.join(QLatin1Char(' '))));
        Q_EMIT self->writesFinished(true);
    });
}

BenchPanel::~BenchPanel()
{
    writeCancel_.cancel();
    cancel();
    if (job_)
        job_->future.waitForFinished();
}

void BenchPanel::buildStrategyBoxes(QVBoxLayout *layout)
{
    std::map<QString, QVBoxLayout *> groups;
    const QStringList defaults = {QStringLiteral("read"), QStringLiteral("pread"), QStringLiteral("mmap"), QStringLiteral("uring-qd4"),
                                  QStringLiteral("buffered-stream-zero-copy"), QStringLiteral("source")};
    for (const auto &strategy : readStrategies()) {
        auto it = groups.find(strategy->group());
        if (it == groups.end()) {
            auto *box = new QGroupBox(strategy->group(), this);
            auto *boxLayout = new QVBoxLayout(box);
            boxLayout->setSpacing(0);
            layout->addWidget(box);
            it = groups.emplace(strategy->group(), boxLayout).first;
        }
        auto *check = new QCheckBox(strategy->name(), this);
        check->setToolTip(strategy->description());
        check->setChecked(defaults.contains(strategy->name()));
        check->setObjectName(strategy->name());
        it->second->addWidget(check);
        strategies_.push_back(check);
    }
}

void BenchPanel::setTarget(const QString &spec, qint64 bytes)
{
    if (running_)
        return;
    target_->setText(spec);
    targetBytes_ = bytes;
    updateSizeWarning();
}

QString BenchPanel::target() const
{
    return target_->text();
}

void BenchPanel::setStrategies(const QStringList &names)
{
    for (QCheckBox *c : strategies_)
        c->setChecked(names.contains(c->objectName()));
}

void BenchPanel::setSizes(uint64_t from, uint64_t to)
{
    from_->setCurrentIndex(std::max(0, from_->findData(QVariant::fromValue(qulonglong(from)))));
    to_->setCurrentIndex(std::max(0, to_->findData(QVariant::fromValue(qulonglong(to)))));
}

void BenchPanel::setRuns(int runs, int warmup)
{
    runs_->setValue(runs);
    warmup_->setValue(warmup);
}

BenchConfig BenchPanel::config() const
{
    BenchConfig c;
    c.spec = target_->text().trimmed();
    for (QCheckBox *check : strategies_)
        if (check->isChecked())
            c.strategies << check->objectName();
    const uint64_t from = from_->currentData().toULongLong();
    const uint64_t to = to_->currentData().toULongLong();
    for (uint64_t size = std::min(from, to); size <= std::max(from, to); size <<= 1)
        c.buffers.push_back(size);
    c.runs = runs_->value();
    c.warmup = warmup_->value();
    c.cache = cache_->currentData().toString() == QLatin1String("cold") ? CacheMode::Cold : CacheMode::Warm;
    c.passes = passes_->value();
    return c;
}

void BenchPanel::run()
{
    if (running_)
        return;
    running_config_ = config();
    if (running_config_.spec.isEmpty()) {
        status_->setText(tr("Choose a target first: open a file, select an entry, or type a SPEC."));
        return;
    }
    saveSettings();
    // Strategies that do not apply to this target are left out, and said so when the run starts.
    running_ = true;
    chart_->clear();
    statistics_->setPoints({});
    tabs_->setCurrentIndex(0);
    progress_->setRange(0, 0);
    status_->setText(tr("Starting…"));
    clock_.start();
    auto *watcher = new QFutureWatcher<BenchPoint>(this);
    liveWatcher_ = watcher;
    const auto buffers = running_config_.buffers;
    connect(watcher, &QFutureWatcher<BenchPoint>::resultsReadyAt, this, [this, watcher, buffers](int first, int last) {
        for (int i = first; i < last; ++i) {
            const BenchPoint point = watcher->resultAt(i);
            chart_->addPoint(point, buffers);
            statistics_->addPoint(point);
        }
    });
    connect(watcher, &QFutureWatcher<BenchPoint>::finished, watcher, &QObject::deleteLater);
    job_ = startBench(
        this, running_config_, [this](BenchOutcome outcome) { finished(std::move(outcome)); },
        [this](BenchProgress p) {
            if (!running_)
                return;
            progress_->setRange(0, p.total);
            progress_->setValue(p.done);
            Q_EMIT progressed(p.done, p.total);
            QString eta;
            if (p.done > 0) {
                const qint64 left = clock_.elapsed() * (p.total - p.done) / p.done / 1000;
                eta = tr(", about %1 s left").arg(left);
            }
            status_->setText(tr("Run %1 of %2: %3%4").arg(p.done + 1).arg(p.total).arg(p.what, eta));
        });
    watcher->setFuture(job_->future);
    updateButtons();
}

void BenchPanel::cancel()
{
    if (!job_ || !running_)
        return;
    job_->cancel.cancel();
    job_->future.cancel();
    status_->setText(tr("Cancelling…"));
}

void BenchPanel::addToHistory(const QString &name, const BenchResult &result)
{
    history_.push_back({name, result});
    auto *item = new QListWidgetItem(name, historyList_);
    item->setFlags(item->flags() | Qt::ItemIsEditable);
}

void BenchPanel::renameRun(int index, const QString &name)
{
    if (auto *item = historyList_->item(index))
        item->setText(name);
}

QString BenchPanel::statusText() const
{
    return status_->text();
}

void BenchPanel::finished(BenchOutcome outcome)
{
    running_ = false;
    // Points the watcher has yet to announce are in the outcome: shown once, not twice.
    if (liveWatcher_)
        disconnect(liveWatcher_, nullptr, this, nullptr);
    progress_->setRange(0, 1);
    progress_->setValue(outcome.result ? 1 : 0);
    if (outcome.result) {
        // Time first: in a legend cut short, two runs of one file still differ.
        const QString name = tr("%1 — %2").arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")), QFileInfoName(outcome.result->spec));
        addToHistory(name, *outcome.result);
        showResult(name, *outcome.result);
        const QStringList summary = summaryLines(*outcome.result);
        status_->setText(tr("Done in %1 s. %2").arg(clock_.elapsed() / 1000.0, 0, 'f', 1).arg(summary.isEmpty() ? QString() : summary.first()));
    } else if (outcome.error && outcome.error->kind == ErrorKind::Cancelled) {
        status_->setText(tr("Cancelled: the chart keeps the points measured so far."));
    } else if (outcome.error) {
        status_->setText(outcome.error->toString());
    }
    updateButtons();
    Q_EMIT runFinished(outcome.result.has_value());
}

void BenchPanel::showResult(const QString &name, const BenchResult &result)
{
    chart_->setResults({{name, result}});
    statistics_->setPoints(result.points);
    comparison_->clear();
}

void BenchPanel::compareHistory(int a, int b)
{
    const auto &[nameA, resultA] = history_[size_t(a)];
    const auto &[nameB, resultB] = history_[size_t(b)];
    chart_->setResults({{nameA, resultA}, {nameB, resultB}});
    QString text = tr("A = %1\nB = %2 (Welch's t-test, verdict only when p < 0.05)\n\n").arg(nameA, nameB);
    for (const PointComparison &c : comparePoints(resultA, resultB))
        text += QStringLiteral("%1 %2 pass %3: B/A = %4 ± %5  %6\n").arg(c.strategy, sizeLabel(c.buffer)).arg(c.pass).arg(c.ratio.value, 0, 'f', 3).arg(c.ratio.sd, 0, 'f', 3).arg(c.verdict);
    comparison_->setPlainText(text);
}

QString BenchPanel::comparisonText() const
{
    return comparison_->toPlainText();
}

Result<void> BenchPanel::loadResult(const QString &path)
{
    auto result = loadBenchResult(path);
    if (!result)
        return std::move(result).error();
    const QString name = QFileInfoName(path);
    addToHistory(name, *result);
    showResult(name, *result);
    return {};
}

Result<void> BenchPanel::saveResult(const QString &path) const
{
    if (history_.empty())
        return Error::make(ErrorKind::Usage, path, tr("no finished run to save"));
    return writeFileAtomically(path, QJsonDocument(toJson(history_.back().second)).toJson(QJsonDocument::Indented));
}

Result<void> BenchPanel::exportChart(const QString &path) const
{
    return chart_->exportTo(path);
}

Result<void> BenchPanel::exportData(const QString &path) const
{
    if (history_.empty())
        return Error::make(ErrorKind::Usage, path, tr("no finished run to export"));
    if (path.endsWith(QLatin1String(".json")))
        return saveResult(path);
    return writeFileAtomically(path, toCsv(history_.back().second));
}

void BenchPanel::updateButtons()
{
    runButton_->setEnabled(!running_);
    cancelButton_->setEnabled(running_);
}

} // namespace asc::ui
