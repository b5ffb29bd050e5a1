// SPDX-License-Identifier: MIT
#pragma once
// The coloured line above the tree: an error, or "N problems reading FILE … Details…" collecting
// what was reported while reading the open file (each distinct problem once).

#include "io/error.h"

#include <QLabel>
#include <vector>

namespace asc::ui {

class ProblemBanner : public QLabel {
    Q_OBJECT
public:
    explicit ProblemBanner(QWidget *parent = nullptr);

    // A note (the highlight colour): something worth knowing, nothing failed.
    void showMessage(const QString &text);
    // An error: the same line in an error colour, so it is not read as a note.
    void showError(const QString &text);
    bool showsError() const { return error_ && !isHidden(); }
    // An error after which opening the file again may help (its worker process ended): the
    // message with a "Try Again" link.
    void showFailure(const QString &text, bool offerRetry);
    // Adds to the file's problems and shows the summary.
    void addProblems(const QString &file, const std::vector<Error> &problems);
    // A new file: no message, no problems.
    void reset();
    QString message() const { return isHidden() ? QString() : text(); }
    QStringList problems() const { return problems_; }

Q_SIGNALS:
    void retryRequested();

private:
    void showDetails();
    QString link(const QString &href, const QString &text) const;

    void setErrorLook(bool error);

    QStringList problems_; // in the order reported
    bool error_ = false;
};

} // namespace asc::ui
