// SPDX-License-Identifier: MIT
#pragma once
// One benchmark run as an object with one result channel (as hotspot's PerfRecord): it starts
// the sweep on our pool (in a worker process with the sandbox on, in this process when the
// config has commands of the user's to start), and reports each finished point, progress with
// an ETA, and the end, on the UI thread, in the order they happened (bench_job.h's one channel). Stop ends it within one buffer read; a command's whole
// process tree ends with it.

#include "bench_job.h"

#include <QElapsedTimer>
#include <QObject>

namespace asc::ui {

class BenchRun : public QObject {
    Q_OBJECT
public:
    explicit BenchRun(QObject *parent = nullptr);
    ~BenchRun() override; // waits for the sweep to end (stopping it first)

    void start(const BenchConfig &config);
    void stop();
    bool isRunning() const { return running_; }
    const BenchConfig &config() const { return config_; }

Q_SIGNALS:
    void pointReady(const asc::BenchPoint &point);
    // "Run 3 of 40: read 4 KiB, run 1 of 3, pass 1, about 12 s left"
    void progressed(int done, int total, const QString &text);
    void finished(const asc::ui::BenchOutcome &outcome, double seconds);

private:
    std::optional<BenchJob> job_;
    BenchConfig config_;
    QElapsedTimer clock_;
    bool running_ = false;
};

} // namespace asc::ui
