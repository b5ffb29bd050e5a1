// SPDX-License-Identifier: MIT
#include "worker_inbox.h"

#include <sys/socket.h>
#include <unistd.h>

namespace asc {

using wire::Kind;

namespace {

bool isAnswer(Kind kind)
{
    return kind == Kind::BackingAnswer || kind == Kind::FileAnswer || kind == Kind::ExportAnswer || kind == Kind::UnlockAnswer || kind == Kind::PasswordAnswer;
}

} // namespace

WorkerInbox::WorkerInbox(int fd)
    : fd_(fd)
{
    reader_ = std::thread([this] { read(); });
}

WorkerInbox::~WorkerInbox()
{
    ::shutdown(fd_, SHUT_RD); // its read returns: the end of the client, as far as it can tell
    reader_.join();
}

void WorkerInbox::read()
{
    for (;;) {
        int passed = -1;
        auto frame = wire::receiveFrame(fd_, &passed);
        const Kind kind = frame ? wire::Received(*frame).kind() : Kind::Cancel;
        {
            std::lock_guard lock(mutex_);
            if (!frame) {
                gone_ = true;
            } else if (kind == Kind::Cancel) {
                const quint32 request = wire::Received(*frame).request();
                if (running_.count(request))
                    cancelled_.insert(request);
            } else if (isAnswer(kind)) {
                answers_.push_back({std::move(*frame), std::exchange(passed, -1)});
            } else {
                if (kind != Kind::Release)
                    running_.insert(wire::Received(*frame).request());
                requests_[int(wire::laneOf(kind))].push_back(std::move(*frame)); // Release: the single lane
            }
        }
        if (passed >= 0)
            ::close(passed); // only answers carry one
        changed_.notify_all();
        if (!frame)
            return;
    }
}

std::optional<QByteArray> WorkerInbox::nextRequest(wire::Lane lane)
{
    auto &queue = requests_[int(lane)];
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return gone_ || !queue.empty(); });
    if (queue.empty())
        return std::nullopt;
    QByteArray frame = std::move(queue.front());
    queue.pop_front();
    return frame;
}

bool WorkerInbox::cancelled(quint32 request) const
{
    std::lock_guard lock(mutex_);
    // A client that is gone wants nothing more either.
    return gone_ || cancelled_.count(request);
}

void WorkerInbox::finished(quint32 request)
{
    std::lock_guard lock(mutex_);
    running_.erase(request);
    cancelled_.erase(request);
}

QByteArray WorkerInbox::ask(const QByteArray &question, Kind answer, int *passed)
{
    const std::lock_guard one(asking_);
    if (!wire::sendFrame(fd_, question))
        ::_exit(0); // the client is gone
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return gone_ || !answers_.empty(); });
        if (answers_.empty())
            ::_exit(0);
        Answer got = std::move(answers_.front());
        answers_.pop_front();
        if (wire::Received(got.frame).kind() == answer) {
            *passed = got.passed;
            return got.frame;
        }
        if (got.passed >= 0) // an answer to no question of ours: dropped
            ::close(got.passed);
    }
}

} // namespace asc
