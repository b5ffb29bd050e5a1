// SPDX-License-Identifier: MIT
#pragma once
// Find in Contents (Tools > Find in Contents…, Ctrl+Shift+F): a pattern, its options, Search and
// Stop, the matches as they come with a count and progress; activating a match asks to show it
// (the window reveals the entry and its line). Widgets and wiring only: the search is a
// ContentSearchJob.

#include "content_matches_model.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeView;

namespace asc::ui {

class ContentSearchPanel : public QWidget {
    Q_OBJECT
public:
    explicit ContentSearchPanel(QWidget *parent = nullptr);

    // What is searched: the open file's SPEC (empty: nothing open, Search disabled).
    void setTarget(const QString &spec);
    void focusPattern();
    void search();
    void stop();
    bool running() const { return job_->running(); }
    ContentMatchesModel *model() const { return model_; }
    QTreeView *results() const { return results_; }
    QLineEdit *patternEdit() const { return pattern_; }
    QLabel *statusLabel() const { return status_; }

Q_SIGNALS:
    void showMatch(const QString &spec, qint64 line);
    void searchFinished();

private:
    void updateState();
    void updateStatus();

    QString target_;
    QLineEdit *pattern_;
    QCheckBox *ignoreCase_;
    QComboBox *syntax_;
    QPushButton *searchButton_;
    QPushButton *stopButton_;
    QLabel *status_;
    QTreeView *results_;
    ContentMatchesModel *model_;
    ContentSearchJob *job_;
    qint64 files_ = 0, bytes_ = 0;
    QStringList problems_;
    QString ended_; // how the last search ended, for the status line
};

} // namespace asc::ui
