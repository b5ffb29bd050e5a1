// SPDX-License-Identifier: MIT
#include "stall_prompt.h"

#include "units.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTimer>

namespace asc::ui {

StallPrompt::StallPrompt(QWidget *parent)
    : QFrame(parent),
      text_(new QLabel(this)),
      timer_(new QTimer(this))
{
    setObjectName(QStringLiteral("stallPrompt"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::ToolTipBase);
    text_->setWordWrap(true);
    text_->setForegroundRole(QPalette::ToolTipText);
    auto *stop = new QPushButton(tr("&Stop Reading"), this);
    stop->setObjectName(QStringLiteral("stallStop"));
    auto *wait = new QPushButton(tr("&Keep Waiting"), this);
    wait->setObjectName(QStringLiteral("stallWait"));
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(text_, 1);
    layout->addWidget(stop);
    layout->addWidget(wait);
    connect(stop, &QPushButton::clicked, this, &StallPrompt::stopWorker);
    connect(wait, &QPushButton::clicked, this, &StallPrompt::keepWaiting);
    connect(timer_, &QTimer::timeout, this, &StallPrompt::look);
    timer_->start(1000);
    hide();
}

void StallPrompt::look()
{
    if (auto shown = shown_.lock()) {
        const int quiet = shown->secondsWithoutProgress();
        if (quiet == 0 || !shown->alive()) { // it moved on (or ended): nothing to ask
            shown_.reset();
            hide();
        } else if (isVisible()) {
            text_->setText(tr("Still reading %1 — nothing read and no answer for %2 s. A damaged or hostile file can make a "
                              "reader loop for ever: stop it, or keep waiting?")
                               .arg(QFileInfo(shown->file()).fileName(), QString::number(quiet)));
        }
        if (shown_.lock() && (isVisible() || quiet < waitUntil_))
            return;
    }
    if (!workers_)
        return;
    for (const WorkerPtr &worker : workers_()) {
        if (!worker || !worker->alive() || worker->secondsWithoutProgress() < std::max(promptSeconds_, shown_.lock() == worker ? waitUntil_ : 0))
            continue;
        shown_ = worker;
        waitUntil_ = 0;
        show();
        look(); // the text
        return;
    }
}

void StallPrompt::stopWorker()
{
    if (auto worker = shown_.lock())
        worker->stop();
    shown_.reset();
    hide();
    Q_EMIT workerStopped();
}

void StallPrompt::keepWaiting()
{
    if (auto worker = shown_.lock())
        waitUntil_ = worker->secondsWithoutProgress() + promptSeconds_;
    hide();
}

} // namespace asc::ui
