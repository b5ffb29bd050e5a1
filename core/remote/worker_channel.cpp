// SPDX-License-Identifier: MIT
#include "worker_channel.h"
#include "formats/archive/archive_passwords.h"

#include "formats/archive/name_charset.h"
#include "formats/image/disk_image.h"
#include "io/cancel.h"
#include "remote/file_requests.h"
#include "remote/parent_answers.h"
#include "sandbox/helper_program.h"
#include "sandbox/proc_io.h"
#include "sandbox/spawn.h"
#include "sandbox/progress_watch.h"
#include "io/trace.h"
#include "sandbox/worker_process.h"
#include "io/units.h"
#include "vfs/problems.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <chrono>
#include <csignal>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace asc {

using wire::Kind;

QString workerProgram()
{
    return helperProgram(QStringLiteral("archivescope-worker"), "ARCHIVESCOPE_WORKER");
}

Result<std::shared_ptr<WorkerChannel>> WorkerChannel::start(const QString &file, const WorkerSettings &settings)
{
    const QString program = settings.program.isEmpty() ? workerProgram() : settings.program;
    if (!QFileInfo(program).isExecutable())
        return Error::make(ErrorKind::NotFound, file, QStringLiteral("cannot start the worker that reads it: no program %1").arg(program));
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
        return Error::system(file, QStringLiteral("socketpair"), errno);
    // Room for a few 1 MiB pieces of content in flight, so a walk streams without stalling.
    for (int end : pair) {
        const int room = 4 << 20;
        ::setsockopt(end, SOL_SOCKET, SO_SNDBUF, &room, sizeof room);
        ::setsockopt(end, SOL_SOCKET, SO_RCVBUF, &room, sizeof room);
    }
    const QByteArray path = QFile::encodeName(program);
    const QByteArray memory = QByteArray::number(quint64(settings.limits.memoryBytes));
    const QByteArray files = QByteArray::number(settings.limits.maxOpenFiles);
    // Backing files outside an image's folder: followed without asking when this process would.
    std::vector<const char *> argv = {path.constData(), "--socket-fd", "3", "--memory-limit", memory.constData(), "--max-open-files", files.constData()};
    if (backingPolicy().allowOutside)
        argv.push_back("--allow-backing");
    if (!settings.nameCharset.isEmpty()) {
        argv.push_back("--charset");
        argv.push_back(settings.nameCharset.constData());
    }
    const QByteArray rings = QByteArray::number(settings.limits.plainRings) + ',' + QByteArray::number(settings.limits.polledRings);
    if (settings.limits.plainRings + settings.limits.polledRings > 0) {
        argv.push_back("--rings");
        argv.push_back(rings.constData());
    }
    argv.push_back(nullptr);
    // The worker's end becomes its descriptor 3; nothing else of ours is inherited (CLOEXEC).
    const pid_t pid = spawnHelper(path.constData(), argv, {{pair[1], 3}});
    ::close(pair[1]);
    if (pid < 0) {
        ::close(pair[0]);
        return Error::system(file, QStringLiteral("start the worker %1").arg(program), int(-pid));
    }
    return std::shared_ptr<WorkerChannel>(new WorkerChannel(file, pair[0], pid, settings));
}

WorkerChannel::WorkerChannel(QString file, int fd, pid_t pid, const WorkerSettings &settings)
    : file_(std::move(file)),
      fd_(fd),
      pid_(pid),
      limits_(settings.limits),
      stopAfterQuietSeconds_(settings.stopAfterQuietSeconds),
      scratchDir_(settings.scratchDir)
{
    reader_ = std::thread([this] { read(); });
}

WorkerChannel::~WorkerChannel()
{
    ::shutdown(fd_, SHUT_RDWR); // the worker sees its end and leaves (a busy one is killed); our reader returns
    reader_.join();
    ::close(fd_);
    if (!ended_.load()) {
        ::kill(pid_, SIGKILL);
        while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
}

void WorkerChannel::read()
{
    wire::FrameReader frames(fd_); // reads ahead: one read takes all the small frames that came
    while (auto frame = frames.next()) {
        wire::Received message(*frame);
        // A file the worker needs (asked by any of its threads): answered here, at once.
        if (isWorkerRequest(message.kind())) {
            if (!answerWorkerRequest(fd_, message, grants()))
                break;
            continue;
        }
        {
            const std::lock_guard lock(mail_);
            if (auto it = pending_.find(message.request()); it != pending_.end()) {
                it->second->frames.push_back(std::move(*frame));
                arrived_.notify_all();
                continue;
            }
        }
        // Outside any request we sent (a worker thread's own question), or for a request that has
        // given up: a question is answered here, anything else is left.
        if (message.kind() == Kind::AskBacking)
            answerBacking(message);
    }
    const std::lock_guard lock(mail_);
    readerDone_ = true;
    arrived_.notify_all();
}

WorkerGrants WorkerChannel::grants() const
{
    const std::lock_guard lock(approvedMutex_);
    return WorkerGrants{{file_}, approved_, scratchDir_, {}};
}

void WorkerChannel::answerBacking(wire::Received &question)
{
    QString image, backing;
    question >> image >> backing;
    const BackingPolicy &policy = backingPolicy();
    const bool allowed = question.ok() && (policy.allowOutside || (policy.askOutside && policy.askOutside(image, backing)));
    if (allowed) {
        const std::lock_guard lock(approvedMutex_);
        approved_ << QFileInfo(backing).canonicalFilePath();
    }
    // Stamped with the question's request: the worker takes answers by kind, one question at a time.
    wire::sendFrame(fd_, (wire::Message(Kind::BackingAnswer, question.request()) << allowed).bytes());
}

void WorkerChannel::release(quint32 id)
{
    std::lock_guard lock(releaseMutex_);
    released_ << id;
}

void WorkerChannel::stop()
{
    stopped_ = true;
    ::kill(pid_, SIGKILL);
}

std::optional<Error> WorkerChannel::death() const
{
    std::lock_guard lock(deathMutex_);
    return death_;
}

Error WorkerChannel::broken(const QString &what)
{
    std::lock_guard lock(deathMutex_);
    if (!ended_.load()) {
        ::kill(pid_, SIGKILL);
        death_ = Error::make(ErrorKind::Format, file_, QStringLiteral("the worker reading it answered out of step (%1): it was ended").arg(what));
        ended_ = true;
        while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
        }
    }
    return *death_;
}

Error WorkerChannel::ended()
{
    std::lock_guard lock(deathMutex_);
    if (ended_.load())
        return *death_;
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    WorkerEnd end;
    readWaitStatus(end, status);
    end.stalled = stalled_;
    QString why;
    ErrorKind kind = ErrorKind::Format;
    if (stopped_ && !stalled_) {
        kind = ErrorKind::Cancelled;
        why = QStringLiteral("reading stopped: its worker was ended");
    } else if (auto text = describeWorkerEnd(end, limits_.memoryBytes, stopAfterQuietSeconds_)) {
        kind = text->kind;
        why = text->text;
    } else {
        why = QStringLiteral("the worker reading it ended unexpectedly (exit status %1)").arg(end.exitCode);
    }
    death_ = Error::make(kind, file_, why);
    ended_ = true;
    return *death_;
}

Result<void> WorkerChannel::send(Pending &pending, Kind kind, const Fields &fields)
{
    if (auto dead = death())
        return *dead;
    QList<quint32> released;
    {
        std::lock_guard lock(releaseMutex_);
        released.swap(released_);
    }
    if (!released.isEmpty() && !wire::sendFrame(fd_, (wire::Message(Kind::Release) << released).bytes()))
        return ended();
    wire::Message message(kind);
    message << wire::RequestContext{currentNameCharset(), IoTrace::enabled(), archivePasswords()};
    if (fields)
        fields(message);
    pending.sentAtNs = IoTrace::enabled() ? IoTrace::elapsedNs() : 0;
    if (!wire::sendFrame(fd_, message.bytes()))
        return ended();
    return {};
}

Result<void> WorkerChannel::reply(const QByteArray &message)
{
    if (auto dead = death())
        return *dead;
    if (!wire::sendFrame(fd_, message))
        return ended();
    return {};
}

Result<wire::Received> WorkerChannel::next()
{
    Pending *pending = nullptr;
    {
        const std::lock_guard lock(mail_);
        if (auto it = pending_.find(wire::currentRequest()); it != pending_.end())
            pending = it->second;
    }
    if (!pending)
        return broken(QStringLiteral("an answer was read outside a request"));
    using Clock = std::chrono::steady_clock;
    const auto asked = Clock::now();
    auto lastLook = asked;
    // The worker's counters are looked at only once an answer is slow in coming (a walk makes
    // a few exchanges per entry: reading /proc each time would cost more than the exchange); the
    // first look only sets the marks. "Stalled" is sandbox/progress_watch's, as for the CLI.
    std::optional<ProgressWatch> watch;
    for (;;) {
        if (auto dead = death())
            return *dead;
        if (!pending->cancelSent && stopRequested()) {
            pending->cancelSent = true;
            if (!wire::sendFrame(fd_, wire::Message(Kind::Cancel).bytes()))
                return ended();
        }
        std::optional<QByteArray> frame;
        bool over = false;
        {
            std::unique_lock lock(mail_);
            arrived_.wait_for(lock, std::chrono::milliseconds(100), [&] { return !pending->frames.empty() || readerDone_; });
            if (!pending->frames.empty()) {
                frame = std::move(pending->frames.front());
                pending->frames.pop_front();
            } else {
                over = readerDone_;
            }
        }
        if (frame) {
            quiet_ = 0;
            wire::Received message(std::move(*frame));
            if (message.kind() == Kind::Trace) {
                importTrace(message, pending->sentAtNs);
                continue;
            }
            if (message.kind() == Kind::Problems) {
                std::vector<Error> problems;
                message >> problems;
                if (!message.ok())
                    return broken(QStringLiteral("problems"));
                for (const Error &problem : problems)
                    reportProblem(problem);
                continue;
            }
            if (message.kind() == Kind::AskBacking) { // asked on this thread: the user may be asked
                answerBacking(message);
                continue;
            }
            if (message.kind() == Kind::Failure) {
                Error error;
                message >> error;
                if (!message.ok())
                    return broken(QStringLiteral("an error"));
                return error;
            }
            return message;
        }
        if (over)
            return ended();
        // No answer yet: has it read anything? (A worker decompressing a large entry is busy,
        // not stuck.)
        const auto now = Clock::now();
        if (now - lastLook >= std::chrono::seconds(1)) {
            lastLook = now;
            const uint64_t read = readProcIo(int(pid_)).value_or(ProcIo{}).rchar;
            const int64_t cpu = processCpuTicks(pid_);
            if (!watch)
                watch.emplace(stopAfterQuietSeconds_, asked, read, cpu);
            const auto verdict = watch->look(now, read, cpu);
            quiet_ = watch->quietSeconds(now);
            if (verdict == ProgressWatch::Verdict::Stalled && !stopped_) {
                stalled_ = true;
                stop();
            }
        }
    }
}

Result<void> WorkerChannel::request(Kind kind, const Fields &fields, const std::function<Result<void>()> &then)
{
    const std::lock_guard lane(lanes_[int(wire::laneOf(kind))]);
    const quint32 id = ++lastRequest_;
    const wire::RequestScope asking(id); // what this thread sends from now on belongs to it
    Pending pending;
    {
        const std::lock_guard lock(mail_);
        pending_[id] = &pending;
    }
    Result<void> result = send(pending, kind, fields);
    if (result)
        result = then();
    {
        const std::lock_guard lock(mail_);
        pending_.erase(id);
    }
    quiet_ = 0;
    return result;
}

Result<wire::Received> WorkerChannel::ask(Kind kind, const Fields &fields)
{
    std::optional<wire::Received> answer;
    auto asked = request(kind, fields, [&]() -> Result<void> {
        auto got = next();
        if (!got)
            return std::move(got).error();
        answer = std::move(*got);
        return {};
    });
    if (!asked)
        return std::move(asked).error();
    return std::move(*answer);
}

Result<void> WorkerChannel::converse(Kind kind, const Fields &fields, const std::function<Result<void>()> &talk)
{
    return request(kind, fields, talk);
}

void WorkerChannel::importTrace(wire::Received &message, int64_t sentAtNs)
{
    wire::TraceFacts trace;
    message >> trace;
    if (!message.ok() || !IoTrace::enabled())
        return;
    // The worker's clock started when it got the request; its threads are numbered from 100 so
    // they stay apart from this process's.
    for (const auto &read : trace.reads) {
        if (read.file >= quint32(trace.files.size()) || read.layer >= quint32(trace.layers.size()))
            continue;
        IoTrace::recordFrom(trace.files[read.file], read.offset, read.length, sentAtNs + read.tNs, 100 + read.thread, trace.layers[read.layer]);
    }
}

} // namespace asc
