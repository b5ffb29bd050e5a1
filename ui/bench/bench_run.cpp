// SPDX-License-Identifier: MIT
#include "bench_run.h"

#include <QFutureWatcher>

namespace asc::ui {

BenchRun::BenchRun(QObject *parent)
    : QObject(parent)
{
}

BenchRun::~BenchRun()
{
    stop();
    if (job_)
        job_->future.waitForFinished();
}

void BenchRun::start(const BenchConfig &config)
{
    if (running_)
        return;
    running_ = true;
    config_ = config;
    clock_.start();
    auto *watcher = new QFutureWatcher<BenchPoint>(this);
    watcher_ = watcher;
    connect(watcher, &QFutureWatcher<BenchPoint>::resultsReadyAt, this, [this, watcher](int first, int last) {
        for (int i = first; i < last; ++i)
            Q_EMIT pointReady(watcher->resultAt(i));
    });
    connect(watcher, &QFutureWatcher<BenchPoint>::finished, watcher, &QObject::deleteLater);
    job_ = startBench(
        this, config_,
        [this](BenchOutcome outcome) {
            running_ = false;
            // Points the watcher has yet to announce are in the outcome: announced once, not twice.
            if (watcher_)
                disconnect(watcher_, nullptr, this, nullptr);
            Q_EMIT finished(outcome, double(clock_.elapsed()) / 1000.0);
        },
        [this](BenchProgress p) {
            if (!running_)
                return;
            QString eta;
            if (p.done > 0)
                eta = tr(", about %1 s left").arg(clock_.elapsed() * (p.total - p.done) / p.done / 1000);
            Q_EMIT progressed(p.done, p.total, tr("Run %1 of %2: %3%4").arg(p.done + 1).arg(p.total).arg(p.what, eta));
        });
    watcher->setFuture(job_->future);
}

void BenchRun::stop()
{
    if (!job_ || !running_)
        return;
    // The flag only: a cancelled future would drop the points measured before the stop.
    job_->cancel.cancel();
}

} // namespace asc::ui
