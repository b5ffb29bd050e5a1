// SPDX-License-Identifier: MIT
#pragma once
// What the GUI suites do to a MainWindow and wait for: a file opened and listed; the password
// dialog answered as it comes. Header only: the GUI suites alone include it (test_support does not
// link the ui library).

#include "main_window.h"

#include <QInputDialog>
#include <QSignalSpy>
#include <QTimer>

namespace asc::test {

// Opens `spec` in `window` and waits until it opened and its listing finished; false when the
// open failed or either took longer than `seconds`.
inline bool openAndWait(ui::MainWindow &window, const QString &spec, int seconds = 20)
{
    QSignalSpy listed(&window, &ui::MainWindow::listingFinished);
    QSignalSpy opened(&window, &ui::MainWindow::opened);
    window.openSpec(spec);
    if ((opened.count() == 0 && !opened.wait(seconds * 1000)) || !opened.first().at(1).toBool())
        return false;
    return listed.count() > 0 || listed.wait(seconds * 1000);
}

// Answers the password dialog ("passwordPrompt") as it shows, with `given` in order (an empty one
// declines); what each question said is kept in `asked`.
struct PasswordAnswers {
    QStringList answers;
    QStringList asked;
    QTimer timer;
    PasswordAnswers(QWidget *window, QStringList given)
        : answers(std::move(given))
    {
        timer.setInterval(20);
        QObject::connect(&timer, &QTimer::timeout, window, [this, window] {
            auto *dialog = window->findChild<QInputDialog *>(QStringLiteral("passwordPrompt"));
            if (!dialog || !dialog->isVisible() || answers.isEmpty())
                return;
            asked << dialog->labelText();
            const QString answer = answers.takeFirst();
            if (answer.isEmpty()) {
                dialog->reject();
            } else {
                dialog->setTextValue(answer);
                dialog->accept();
            }
        });
        timer.start();
    }
};

} // namespace asc::test
