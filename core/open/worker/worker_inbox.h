// SPDX-License-Identifier: MIT
#pragma once
// The worker's one reader of its socket: a thread takes every frame from the client as it
// arrives and sorts it: requests (and Release) for the serving loop, a Cancel for the request it
// follows, answers (BackingAnswer, FileAnswer with its descriptor, ExportAnswer) for the one
// question to the client in flight. So a stop is seen as soon as it arrives, with no polling,
// and the worker's questions (a backing file, a file to open, a scratch file, an export) may come
// from any of its threads, one at a time, while the serving loop sends answers.

#include "open/worker/wire.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

namespace asc {

class WorkerInbox {
public:
    explicit WorkerInbox(int fd); // starts reading
    ~WorkerInbox(); // stops reading (the socket's reading side is shut down)
    WorkerInbox(const WorkerInbox &) = delete;
    WorkerInbox &operator=(const WorkerInbox &) = delete;

    // The next request or Release; nullopt once the client is gone. A request taken becomes the
    // one a Cancel stops.
    std::optional<QByteArray> nextRequest();
    // Whether a Cancel came for the request taken last, or the client has gone.
    bool cancelled() const;
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
    std::deque<QByteArray> requests_;
    std::deque<Answer> answers_;
    bool gone_ = false;
    uint64_t requestsRead_ = 0; // requests the reading thread has seen (Release not counted)
    uint64_t requestsTaken_ = 0; // ... the serving loop has taken
    uint64_t cancelledRequest_ = 0; // the request a Cancel came after (0: none)
    std::mutex asking_; // one question at a time
    std::thread reader_;
};

} // namespace asc
