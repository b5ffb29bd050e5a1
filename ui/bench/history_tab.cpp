// SPDX-License-Identifier: MIT
#include "history_tab.h"

#include "bench/comparison.h"
#include "benchmark_chart.h"
#include "io/units.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTextEdit>
#include <QVBoxLayout>

namespace asc::ui {

HistoryTab::HistoryTab(BenchmarkChart *chart, QWidget *parent)
    : QWidget(parent),
      chart_(chart)
{
    auto *layout = new QVBoxLayout(this);
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("benchHistory"));
    list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    comparison_ = new QTextEdit(this);
    comparison_->setReadOnly(true);
    compare_ = new QPushButton(tr("Compare"), this);
    compare_->setObjectName(QStringLiteral("historyCompare"));
    compare_->setToolTip(tr("Overlay the two selected runs and test each point's difference"));
    compare_->setEnabled(false);
    auto *buttons = new QHBoxLayout;
    auto *hint = new QLabel(tr("Runs of this session — select one to show it, two to compare; double-click a name to edit it:"), this);
    hint->setWordWrap(true);
    buttons->addWidget(hint, 1);
    buttons->addWidget(compare_);
    layout->addLayout(buttons);
    layout->addWidget(list_, 1);
    layout->addWidget(comparison_, 1);
    connect(list_, &QListWidget::itemSelectionChanged, this, [this] {
        const QList<int> rows = selectedRows();
        compare_->setEnabled(rows.size() == 2);
        if (rows.size() == 1)
            Q_EMIT showRequested(runs_[size_t(rows[0])].first, runs_[size_t(rows[0])].second);
        else if (rows.size() == 2)
            compare(rows[0], rows[1]);
    });
    connect(compare_, &QPushButton::clicked, this, [this] {
        const QList<int> rows = selectedRows();
        if (rows.size() == 2)
            compare(rows[0], rows[1]);
    });
    // A run's label is the user's to edit ("before the fix", "after"): legends and comparisons use it.
    // The list keeps the run's time and target beside the label ("before — 14:03:12 — data.bin").
    connect(list_, &QListWidget::itemChanged, this, [this](QListWidgetItem *item) {
        const int row = list_->row(item);
        if (row < 0 || row >= stamps_.size())
            return;
        QString text = item->text().trimmed();
        const QString stamp = stamps_[row];
        if (text.endsWith(stamp))
            text = text.chopped(stamp.size()).trimmed();
        if (text.endsWith(QStringLiteral("—")))
            text = text.chopped(1).trimmed();
        setLabel(row, text);
    });
}

void HistoryTab::setLabel(int row, const QString &label)
{
    const QString &stamp = stamps_[row];
    runs_[size_t(row)].first = label.isEmpty() ? stamp : label;
    if (QListWidgetItem *item = list_->item(row)) {
        const QSignalBlocker block(list_);
        item->setText(label.isEmpty() ? stamp : tr("%1 — %2").arg(label, stamp));
    }
}

QList<int> HistoryTab::selectedRows() const
{
    QList<int> rows;
    for (const QModelIndex &index : list_->selectionModel()->selectedRows())
        rows << index.row();
    std::sort(rows.begin(), rows.end());
    return rows;
}

void HistoryTab::add(const QString &name, const BenchResult &result)
{
    runs_.push_back({name, result});
    stamps_ << name;
    auto *item = new QListWidgetItem(name, list_);
    item->setToolTip(result.spec);
    item->setFlags(item->flags() | Qt::ItemIsEditable);
}

void HistoryTab::rename(int index, const QString &name)
{
    if (index >= 0 && index < stamps_.size())
        setLabel(index, name.trimmed());
}

void HistoryTab::compare(int a, int b)
{
    const auto &[nameA, resultA] = runs_[size_t(a)];
    const auto &[nameB, resultB] = runs_[size_t(b)];
    chart_->setResults({{nameA, resultA}, {nameB, resultB}});
    QString text = tr("A = %1\nB = %2 (Welch's t-test, a verdict only where it holds after Holm's correction for the points compared)\n\n").arg(nameA, nameB);
    for (const PointComparison &c : comparePoints(resultA, resultB))
        text += QStringLiteral("%1 %2 pass %3: B/A = %4 ± %5  %6\n").arg(c.strategy, sizeLabel(c.buffer)).arg(c.pass).arg(c.ratio.value, 0, 'f', 3).arg(c.ratio.sd, 0, 'f', 3).arg(c.verdict);
    comparison_->setPlainText(text);
}

QString HistoryTab::comparisonText() const
{
    return comparison_->toPlainText();
}

void HistoryTab::clearComparison()
{
    comparison_->clear();
}

} // namespace asc::ui
