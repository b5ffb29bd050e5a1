// SPDX-License-Identifier: MIT
#include "stall_prompt.h"

#include "io/units.h"

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
    // The worker the prompt is about stays so while it is quiet; when it moves on or ends, a
    // quiet one is looked for among those watched.
    WorkerPtr worker = shown_.lock();
    if (worker && (worker->secondsWithoutProgress() == 0 || !worker->alive()))
        worker.reset();
    if (!worker && workers_) {
        for (const WorkerPtr &candidate : workers_()) {
            if (candidate && candidate->alive() && candidate->secondsWithoutProgress() >= promptSeconds_) {
                worker = candidate;
                askAfter_ = promptSeconds_;
                break;
            }
        }
    }
    shown_ = worker;
    if (!worker || worker->secondsWithoutProgress() < askAfter_) { // nothing to ask, or Keep Waiting
        hide();
        return;
    }
    text_->setText(tr("Still reading %1 — nothing read and no answer for %2 s. A damaged or hostile file can make a "
                      "reader loop for ever: stop it, or keep waiting?")
                       .arg(QFileInfo(worker->file()).fileName(), QString::number(worker->secondsWithoutProgress())));
    show();
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
        askAfter_ = worker->secondsWithoutProgress() + promptSeconds_;
    hide();
}

} // namespace asc::ui
