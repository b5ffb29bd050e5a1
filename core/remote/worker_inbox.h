// SPDX-License-Identifier: MIT
#pragma once
// The worker's one reader of its socket: a thread takes every frame from the client as it
// arrives and sorts it: requests for the serving thread of their lane (wire::laneOf; Release goes
// with the short requests), a Cancel for the request it names, answers (BackingAnswer, FileAnswer
// with its descriptor, ExportAnswer) for the one question to the client in flight. So a stop is
// seen as soon as it arrives, with no polling, and the worker's questions (a backing file, a file
// to open, a scratch file, an export) may come from any of its threads, one at a time, while the
// serving threads send answers.

#include "remote/wire.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace asc {

class WorkerInbox {
public:
    explicit WorkerInbox(int fd); // starts reading
    ~WorkerInbox(); // stops reading (the socket's reading side is shut down)
    WorkerInbox(const WorkerInbox &) = delete;
    WorkerInbox &operator=(const WorkerInbox &) = delete;

    // The next request of `lane` (or, for the short lane, a Release); nullopt once the client is
    // gone.
    std::optional<QByteArray> nextRequest(wire::Lane lane);
    // Whether a Cancel came for `request`, or the client has gone.
    bool cancelled(quint32 request) const;
    // `request` has been answered: a Cancel for it from now on is one that came too late.
    void finished(quint32 request);
    // Sends `question` and waits for the answer of kind `answer` (a descriptor passed with it in
    // *passed, else -1). Ends the process when the client is gone.
    QByteArray ask(const QByteArray &question, wire::Kind answer, int *passed);

private:
    void read();

    struct Answer {
        QByteArray frame;
        int passed = -1;
    };

    const int fd_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<QByteArray> requests_[wire::kLanes];
    std::deque<Answer> answers_;
    bool gone_ = false;
    std::set<quint32> running_; // requests read and not yet answered
    std::set<quint32> cancelled_; // ... of them, those a Cancel came for
    std::mutex asking_; // one question at a time
    std::thread reader_;
};

} // namespace asc
