// SPDX-License-Identifier: MIT
#pragma once
// The line above the workspaces that appears when the open file's worker process has gone a
// while (SandboxChoice::promptSeconds) without answering or reading a byte: "Still reading FILE —
// nothing for 30 s. [Stop] [Keep Waiting]". Stop ends the worker (what it was doing fails with
// "reading stopped"; the window stays usable); Keep Waiting asks again after as long again.

#include "remote/worker_channel.h"

#include <QFrame>
#include <functional>

class QLabel;
class QTimer;

namespace asc::ui {

class StallPrompt : public QFrame {
    Q_OBJECT
public:
    explicit StallPrompt(QWidget *parent = nullptr);

    // The workers to watch (the file being opened, the file open), asked at each look.
    void setWorkers(std::function<QList<WorkerPtr>()> workers) { workers_ = std::move(workers); }
    void setPromptSeconds(int seconds) { promptSeconds_ = seconds; }
    // What a look does every second (tests call it directly).
    void look();
    void stopWorker();
    void keepWaiting();

Q_SIGNALS:
    void workerStopped();

private:
    std::function<QList<WorkerPtr>()> workers_;
    std::weak_ptr<WorkerChannel> shown_; // the worker the prompt is about
    int askAfter_ = 0; // quiet seconds after which to ask about it (again, after Keep Waiting)
    int promptSeconds_ = 30;
    QLabel *text_;
    QTimer *timer_;
};

} // namespace asc::ui
