// SPDX-License-Identifier: MIT
#include "content_search_panel.h"

#include "io/units.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace asc::ui {

ContentSearchPanel::ContentSearchPanel(QWidget *parent)
    : QWidget(parent),
      pattern_(new QLineEdit(this)),
      ignoreCase_(new QCheckBox(tr("Ignore &case"), this)),
      syntax_(new QComboBox(this)),
      searchButton_(new QPushButton(tr("&Search"), this)),
      stopButton_(new QPushButton(tr("Stop"), this)),
      status_(new QLabel(this)),
      results_(new QTreeView(this)),
      model_(new ContentMatchesModel(this)),
      job_(new ContentSearchJob(this))
{
    pattern_->setObjectName(QStringLiteral("contentPattern"));
    pattern_->setPlaceholderText(tr("Text to find in every file's content (inside nested archives and disk images too)"));
    pattern_->setClearButtonEnabled(true);
    ignoreCase_->setChecked(true);
    syntax_->addItems({tr("Text"), tr("Regular expression"), tr("Perl regular expression")});
    syntax_->setToolTip(tr("Text: the characters as typed. Regular expression: grep -E's syntax. Perl: PCRE2."));
    searchButton_->setDefault(true);
    stopButton_->setObjectName(QStringLiteral("contentStop"));
    status_->setObjectName(QStringLiteral("contentStatus"));
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    results_->setObjectName(QStringLiteral("contentResults"));
    results_->setModel(model_);
    results_->setRootIsDecorated(false);
    results_->setUniformRowHeights(true);
    results_->setAlternatingRowColors(true);
    results_->header()->setStretchLastSection(true);
    results_->header()->resizeSection(ContentMatchesModel::EntryColumn, 320);
    results_->header()->resizeSection(ContentMatchesModel::LineColumn, 60);

    auto *bar = new QHBoxLayout;
    bar->addWidget(pattern_, 1);
    bar->addWidget(ignoreCase_);
    bar->addWidget(syntax_);
    bar->addWidget(searchButton_);
    bar->addWidget(stopButton_);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(status_);
    layout->addWidget(results_, 1);

    connect(pattern_, &QLineEdit::returnPressed, this, &ContentSearchPanel::search);
    connect(pattern_, &QLineEdit::textChanged, this, &ContentSearchPanel::updateState);
    connect(searchButton_, &QPushButton::clicked, this, &ContentSearchPanel::search);
    connect(stopButton_, &QPushButton::clicked, this, &ContentSearchPanel::stop);
    connect(job_, &ContentSearchJob::matched, this, [this](const QList<ContentMatch> &batch) {
        model_->append(batch);
        updateStatus();
    });
    connect(job_, &ContentSearchJob::progress, this, [this](qint64 files, qint64 bytes) {
        files_ = files;
        bytes_ = bytes;
        updateStatus();
    });
    connect(job_, &ContentSearchJob::problem, this, [this](const QString &text) {
        problems_ << text;
        updateStatus();
    });
    connect(job_, &ContentSearchJob::finished, this, [this](bool, bool stopped) {
        ended_ = stopped ? tr("stopped") : tr("done");
        updateState();
        updateStatus();
        Q_EMIT searchFinished();
    });
    // A click (or Enter) shows the match: its entry in the tree, its line in the preview.
    connect(results_, &QTreeView::activated, this, [this](const QModelIndex &index) {
        const ContentMatch &m = model_->match(index.row());
        Q_EMIT showMatch(m.spec, m.line);
    });
    connect(results_, &QTreeView::clicked, this, [this](const QModelIndex &index) {
        const ContentMatch &m = model_->match(index.row());
        Q_EMIT showMatch(m.spec, m.line);
    });
    updateState();
}

void ContentSearchPanel::setTarget(const QString &spec)
{
    if (spec == target_)
        return;
    stop();
    target_ = spec;
    model_->clear();
    ended_.clear();
    problems_.clear();
    status_->clear();
    updateState();
}

void ContentSearchPanel::focusPattern()
{
    pattern_->setFocus();
    pattern_->selectAll();
}

void ContentSearchPanel::search()
{
    if (target_.isEmpty() || pattern_->text().isEmpty())
        return;
    ContentSearchOptions options;
    options.pattern = pattern_->text();
    options.ignoreCase = ignoreCase_->isChecked();
    options.syntax = ContentSearchOptions::Syntax(syntax_->currentIndex());
    model_->clear();
    files_ = bytes_ = 0;
    problems_.clear();
    ended_.clear();
    job_->start(target_, options);
    updateState();
    updateStatus();
}

void ContentSearchPanel::stop()
{
    job_->stop();
    updateState();
}

void ContentSearchPanel::updateState()
{
    const bool running = job_->running();
    searchButton_->setEnabled(!running && !target_.isEmpty() && !pattern_->text().isEmpty());
    stopButton_->setEnabled(running);
}

void ContentSearchPanel::updateStatus()
{
    const int matches = model_->rowCount(), entries = model_->entries();
    QString text = (matches == 1 ? tr("1 match") : tr("%1 matches").arg(matches)) + QLatin1Char(' ') + (entries == 1 ? tr("in 1 file") : tr("in %1 files").arg(entries));
    text += QStringLiteral("; ") + (files_ == 1 ? tr("1 file searched") : tr("%1 files searched").arg(files_)) + QStringLiteral(" (%1)").arg(sizeLabel(uint64_t(bytes_)));
    if (job_->running())
        text = tr("Searching… ") + text;
    else if (!ended_.isEmpty())
        text += QStringLiteral(" — ") + ended_;
    if (!problems_.isEmpty())
        text += QStringLiteral(" — ") + (problems_.size() == 1 ? tr("a problem: ") : tr("%1 problems, the last: ").arg(problems_.size())) + problems_.last();
    status_->setText(text);
}

} // namespace asc::ui
