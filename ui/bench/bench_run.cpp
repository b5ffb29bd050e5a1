// SPDX-License-Identifier: MIT
#include "bench_run.h"

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
    job_ = startBench(this, config_, [this](const BenchEvent &event) {
        if (const auto *point = std::get_if<BenchPoint>(&event)) {
            Q_EMIT pointReady(*point);
        } else if (const auto *p = std::get_if<BenchProgress>(&event)) {
            if (!running_)
                return;
            QString eta;
            if (p->done > 0)
                eta = tr(", about %1 s left").arg(clock_.elapsed() * (p->total - p->done) / p->done / 1000);
            Q_EMIT progressed(p->done, p->total, tr("Run %1 of %2: %3%4").arg(p->done + 1).arg(p->total).arg(p->what, eta));
        } else {
            running_ = false;
            Q_EMIT finished(std::get<BenchOutcome>(event), double(clock_.elapsed()) / 1000.0);
        }
    });
}

void BenchRun::stop()
{
    if (!job_ || !running_)
        return;
    // The flag only: a cancelled future would drop the points measured before the stop.
    job_->cancel.cancel();
}

} // namespace asc::ui
