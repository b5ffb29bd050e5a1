// SPDX-License-Identifier: MIT
#pragma once
// The client's end of one worker process (one per opened file): starts `archivescope-worker`
// with one end of a socketpair, sends requests and reads their answers, and watches it: how long
// it has gone without progress (no answer, no byte read), and when it ends, why (a crash, the
// memory limit, being stopped) as an Error naming the file. Once the worker is gone every request
// fails with that error; a new channel is a new worker.
// Two requests may run at once, one per lane (wire::laneOf): a listing or walk (converse), and a
// short one (ask: the details pane's read while the tree is listed). Further callers wait for
// their lane. One thread reads the socket and hands each answer to the thread whose request it
// belongs to; it answers the worker's file requests itself.

#include "sandbox/helper_program.h"
#include "sandbox/lockdown.h"
#include "io/result.h"
#include "remote/file_requests.h"
#include "remote/facts.h"
#include "remote/wire.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

namespace asc {

struct WorkerSettings {
    QString program; // the archivescope-worker to run; empty: workerProgram()
    LockdownLimits limits;
    QByteArray nameCharset; // legacy names will be decoded from this (its converter is loaded first)
    // Ends a worker that has answered nothing and read nothing for this long (0: never; the GUI
    // asks the user instead).
    int stopAfterQuietSeconds = 0;
    QString scratchDir; // where it may have scratch files made (the bench's copies); empty: nowhere
};

// The worker: $ARCHIVESCOPE_WORKER, archivescope-worker.
QString workerProgram();

class WorkerChannel {
public:
    // Starts a worker for `file` (what errors name). Start it from a thread that lives as long as
    // the channel (the UI thread): the worker dies with the thread that started it.
    static Result<std::shared_ptr<WorkerChannel>> start(const QString &file, const WorkerSettings &settings = {});
    ~WorkerChannel(); // kills the worker

    WorkerChannel(const WorkerChannel &) = delete;
    WorkerChannel &operator=(const WorkerChannel &) = delete;

    // A request with one answer (the short lane): sends it (its context filled in from the
    // calling thread: name charset, tracing) and returns the answer; a Failure answer comes back
    // as its Error.
    using Fields = std::function<void(wire::Message &)>;
    Result<wire::Received> ask(wire::Kind kind, const Fields &fields);
    // A request with many answers (the streaming lane): sends it, then `talk` reads them with
    // next() and may answer with reply() until it has read the last one (it must, unless next()
    // failed). Other conversations wait meanwhile; ask() does not.
    Result<void> converse(wire::Kind kind, const Fields &fields, const std::function<Result<void>()> &talk);
    // Only inside converse(), on its thread: the next answer (problems and traces are taken care
    // of here: the problems are reported on the calling thread, the reads join this process's
    // trace).
    Result<wire::Received> next();
    Result<void> reply(const QByteArray &message);
    // The answer could not be read: the conversation is out of step, the worker is ended.
    Error broken(const QString &what);

    // Forgets an id the worker holds (sent with the next request).
    void release(quint32 id);

    // Seconds the running request has gone without an answer or a byte read; 0 when idle.
    int secondsWithoutProgress() const { return quiet_.load(std::memory_order_relaxed); }
    // Ends the worker (the running request fails with "stopped").
    void stop();
    bool alive() const { return !ended_.load(); }
    const QString &file() const { return file_; }
    pid_t pid() const { return pid_; }

private:
    // A request being answered: what the reading thread has handed over for it, and what its
    // own thread keeps.
    struct Pending {
        std::deque<QByteArray> frames; // under mail_
        bool cancelSent = false; // the asking thread's only
        int64_t sentAtNs = 0; // ... when it was sent, on this process's trace clock
    };

    WorkerChannel(QString file, int fd, pid_t pid, const WorkerSettings &settings);
    // Sends a request in its lane and runs `then` (which reads its answers) on this thread.
    Result<void> request(wire::Kind kind, const Fields &fields, const std::function<Result<void>()> &then);
    Result<void> send(Pending &pending, wire::Kind kind, const Fields &fields);
    Error ended(); // reaps the worker, the error every request answers from now on
    std::optional<Error> death() const; // death_, read under its lock
    void importTrace(wire::Received &message, int64_t sentAtNs);
    void read(); // the reading thread
    void answerBacking(wire::Received &question);
    WorkerGrants grants() const;

    QString file_;
    int fd_;
    pid_t pid_;
    LockdownLimits limits_;
    int stopAfterQuietSeconds_ = 0;
    std::atomic<bool> stalled_{false}; // stopped for its silence, not by request
    std::mutex lanes_[wire::kLanes]; // one request per lane at a time
    std::atomic<quint32> lastRequest_{0};
    std::mutex releaseMutex_;
    QList<quint32> released_;
    std::atomic<int> quiet_{0};
    std::atomic<bool> ended_{false};
    std::atomic<bool> stopped_{false};
    mutable std::mutex deathMutex_; // guards death_ (set once, by whichever thread sees the end first)
    std::optional<Error> death_;
    mutable std::mutex approvedMutex_; // guards approved_ (asked on a request's thread, read by the reader)
    QStringList approved_; // backing files outside the folder the user allowed
    QString scratchDir_;
    std::mutex mail_; // guards pending_, readerDone_
    std::condition_variable arrived_;
    std::map<quint32, Pending *> pending_; // the requests running, by number
    bool readerDone_ = false; // the worker's end of the socket has closed
    std::thread reader_;
};

using WorkerPtr = std::shared_ptr<WorkerChannel>;

} // namespace asc
