// SPDX-License-Identifier: MIT
#include "problem_banner.h"

#include "io/units.h"
#include "io/byte_text.h"
#include "vfs/path_text.h"

#include <QApplication>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace asc::ui {

ProblemBanner::ProblemBanner(QWidget *parent)
    : QLabel(parent)
{
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextBrowserInteraction);
    setOpenExternalLinks(false);
    setAutoFillBackground(true);
    setForegroundRole(QPalette::HighlightedText);
    setBackgroundRole(QPalette::Highlight);
    setMargin(6);
    hide();
    connect(this, &QLabel::linkActivated, this, [this](const QString &link) {
        if (link == QLatin1String("#problems"))
            showDetails();
        else if (link == QLatin1String("#retry"))
            Q_EMIT retryRequested();
    });
}

void ProblemBanner::showMessage(const QString &text)
{
    setErrorLook(false);
    setText(text);
    show();
}

void ProblemBanner::showError(const QString &text)
{
    setText(text);
    setErrorLook(true);
    show();
}

void ProblemBanner::setErrorLook(bool error)
{
    error_ = error;
    QPalette look = parentWidget() ? parentWidget()->palette() : QPalette();
    if (error) {
        // A red that keeps white text readable, in light and dark themes alike.
        look.setColor(QPalette::Highlight, QColor(0xb3, 0x26, 0x1e));
        look.setColor(QPalette::HighlightedText, Qt::white);
    }
    setPalette(look);
}

QString ProblemBanner::link(const QString &href, const QString &text) const
{
    // In the banner's own text colour, underlined: the default link blue is unreadable on the
    // highlight colour the banner is painted in.
    return QStringLiteral("<a href=\"%1\" style=\"color: %2; text-decoration: underline\"><b>%3</b></a>")
        .arg(href, palette().color(QPalette::HighlightedText).name(), text.toHtmlEscaped());
}

void ProblemBanner::showFailure(const QString &text, bool offerRetry)
{
    setErrorLook(true); // first: the link takes the error look's text colour
    showError(offerRetry ? QStringLiteral("%1 %2").arg(text.toHtmlEscaped(), link(QStringLiteral("#retry"), tr("Try Again"))) : text);
}

void ProblemBanner::reset()
{
    setErrorLook(false);
    problems_.clear();
    hide();
}

void ProblemBanner::addProblems(const QString &file, const std::vector<Error> &problems)
{
    if (problems.empty())
        return;
    for (const Error &problem : problems) {
        const QString line = pathText(textToBytes(problem.toString()));
        if (!problems_.contains(line))
            problems_ << line;
    }
    showMessage(tr("%1 reading %2 — the tree shows everything that could be read. %4<br>%3")
                    .arg(countText(uint64_t(problems_.size()), tr("%n problem"), tr("%n problems")), file.toHtmlEscaped(),
                         problems_.first().toHtmlEscaped(), link(QStringLiteral("#problems"), tr("Details…"))));
}

void ProblemBanner::showDetails()
{
    // Every problem in view at once (a message box hid them behind a second "Show Details…" click).
    auto *dialog = new QDialog(window());
    dialog->setObjectName(QStringLiteral("problemDetails"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Problems"));
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(new QLabel(countText(uint64_t(problems_.size()), tr("%n problem was reported while reading the file."),
                                           tr("%n problems were reported while reading the file.")),
                                 dialog));
    auto *list = new QPlainTextEdit(problems_.join(QLatin1Char('\n')), dialog);
    list->setObjectName(QStringLiteral("problemList"));
    list->setReadOnly(true);
    list->setLineWrapMode(QPlainTextEdit::NoWrap);
    layout->addWidget(list, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QPushButton *copy = buttons->addButton(tr("Copy"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, list, [list] { QApplication::clipboard()->setText(list->toPlainText()); });
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog->resize(720, 360);
    dialog->open();
}

} // namespace asc::ui
