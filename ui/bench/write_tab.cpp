// SPDX-License-Identifier: MIT
#include "write_tab.h"

#include "bench/write/write_bench.h"
#include "benchmark_chart.h"
#include "io/task_pool.h"
#include "io/units.h"
#include "when_finished.h"

#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace asc::ui {

WriteTab::WriteTab(QWidget *parent)
    : QWidget(parent),
      chart_(new BenchmarkChart(this))
{
    chart_->setEmptyTitle(tr("Write amplification by file size"));
    QWidget *page = this;
    auto *layout = new QVBoxLayout(page);
    // Four short rows, not one long one: the tab stays usable in a small window (800x600).
    auto *form = new QGridLayout;
    directory_ = new QLineEdit(QDir::homePath(), page);
    directory_->setToolTip(tr("A directory on the filesystem to measure; files go to a private folder that is removed afterwards"));
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
    auto *runButton = new QPushButton(tr("Run Writes"), page);
    auto *browse = new QPushButton(tr("Browse…"), page);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString chosen = QFileDialog::getExistingDirectory(this, tr("Directory to Measure"), directory_->text());
        if (!chosen.isEmpty())
            directory_->setText(chosen);
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
    dirRow->addWidget(directory_, 1);
    dirRow->addWidget(browse);
    form->addLayout(dirRow, 0, 1);
    form->addWidget(new QLabel(tr("Files"), page), 1, 0);
    form->addLayout(row({sizeFrom, new QLabel(tr("to"), page), sizeTo}), 1, 1);
    form->addWidget(new QLabel(tr("Buffer N"), page), 2, 0);
    form->addLayout(row({buffer, new QLabel(tr("to"), page), bufferTo}), 2, 1);
    form->addLayout(row({atomic, runButton}), 3, 1);
    layout->addLayout(form);
    status_ = new QLabel(page);
    status_->setWordWrap(true);
    layout->addWidget(status_);
    // The table above the chart, both the tab's full width: side by side, the chart was too
    // narrow for its legend's names and its axis labels.
    auto *split = new QSplitter(Qt::Vertical, page);
    table_ = new QTableWidget(split);
    split->addWidget(table_);
    split->addWidget(chart_->createView(split));
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    connect(runButton, &QPushButton::clicked, this, [=, this] {
        run(directory_->text(), sizeFrom->currentData().toULongLong(), sizeTo->currentData().toULongLong(),
            buffer->currentData().toULongLong(), atomic->isChecked(), 3, bufferTo->currentData().toULongLong());
    });
    // The folder measured last time, if it is still there.
    const QString folder = QSettings().value(QStringLiteral("benchmark/writeDirectory")).toString();
    if (!folder.isEmpty() && QFileInfo(folder).isDir())
        directory_->setText(folder);
}

WriteTab::~WriteTab()
{
    cancel_.cancel();
}

void WriteTab::run(const QString &directory, uint64_t from, uint64_t to, uint64_t buffer, bool atomic, int runs, uint64_t bufferTo)
{
    if (running_)
        return;
    running_ = true;
    directory_->setText(directory);
    QSettings().setValue(QStringLiteral("benchmark/writeDirectory"), directory);
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
    cancel_ = CancelFlag();
    status_->setText(tr("Writing…"));
    const CancelFlag cancel = cancel_;
    QPointer<WriteTab> self(this);
    auto sweep = QtConcurrent::run(taskPool(), [config, buffers, cancel] { return runWriteBenchSweep(config, buffers, cancel); });
    whenFinished(this, std::move(sweep), [self](Result<WriteBenchResult> result) {
        if (!self)
            return;
        self->running_ = false;
        if (!result) {
            self->status_->setText(result.error().toString());
            Q_EMIT self->finished(false);
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
        QTableWidget *table = self->table_;
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
        self->chart_->setAmplification(*result);
        self->status_->setText(tr("Device bytes from %1 on %2. %3").arg(result->deviceBytesSource, result->filesystem, result->warnings.join(QLatin1Char(' '))));
        Q_EMIT self->finished(true);
    });
}

} // namespace asc::ui
