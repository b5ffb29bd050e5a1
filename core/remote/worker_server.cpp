// SPDX-License-Identifier: MIT
#include "worker_server.h"
#include "formats/archive/archive_passwords.h"

#include "formats/archive/name_charset.h"
#include "formats/format.h"
#include "formats/image/disk_image.h"
#include "io/cancel.h"
#include "remote/file_requests.h"
#include "io/trace.h"
#include "remote/facts.h"
#include "remote/wire.h"
#include "remote/worker_inbox.h"
#include "vfs/problems.h"

#include <chrono>
#include <malloc.h>
#include <poll.h>
#include <unistd.h>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <unordered_map>

namespace asc {

namespace {

using wire::Kind;
using wire::Message;
using wire::Received;

constexpr quint64 kMaxRead = 16u << 20;
constexpr size_t kBatchEntries = 1024;

// The problems met by the request this (serving) thread runs, sent before its answer.
thread_local std::vector<Error> tProblems;

class Server {
public:
    Server(int fd, std::map<Kind, WorkerAct> acts)
        : fd_(fd),
          acts_(std::move(acts))
    {
        declareOwnRequests();
    }

    int run()
    {
        // Whether an image reads a backing file outside its folder is the client's decision (its
        // --allow-backing, or the user's answer): asked over the socket.
        backingPolicy().askOutside = [this](const QString &image, const QString &backing) { return askBacking(image, backing); };
        // The worker cannot open files (its filter refuses open): the client opens what its
        // policy allows and passes the descriptor. Its answers, the client's requests and stops
        // are all read by the inbox's thread.
        inbox_ = std::make_unique<WorkerInbox>(fd_);
        askParentThrough(*inbox_, fd_);
        // Short requests (a read, an open: the window's preview) are served beside a listing.
        std::thread single([this] { serve(wire::Lane::Single); });
        serve(wire::Lane::Stream);
        single.join();
        return 0;
    }

private:
    void serve(wire::Lane lane)
    {
        while (auto frame = inbox_->nextRequest(lane)) {
            Received request(std::move(*frame));
            if (request.kind() == Kind::Release) {
                release(request);
                continue;
            }
            wire::RequestContext context;
            request >> context;
            if (!request.ok())
                ::_exit(0); // a client that speaks nonsense is not ours
            const quint32 id = request.request();
            const wire::RequestScope answering(id); // what this thread sends belongs to it
            tProblems.clear();
            const NameCharsetScope charset(context.nameCharset);
            const ArchivePasswordsScope passwords(std::move(context.passwords));
            const ProblemScope collect([](const Error &problem) { tProblems.push_back(problem); });
            const CancelScope stop([this, id] { return inbox_->cancelled(id); });
            // The trace is the process's: a traced request runs alone.
            std::shared_lock<std::shared_mutex> shared(tracing_, std::defer_lock);
            std::unique_lock<std::shared_mutex> alone(tracing_, std::defer_lock);
            if (context.trace) {
                alone.lock();
                IoTrace::start();
            } else {
                shared.lock();
            }
            const QByteArray answer = handle(request);
            if (!tProblems.empty())
                send((Message(Kind::Problems) << tProblems).bytes());
            if (context.trace)
                sendTrace();
            inbox_->finished(id);
            if (!wire::sendFrame(fd_, answer))
                ::_exit(0);
            // A listing or an opening leaves freed batches and buffers behind: give them back
            // while the worker waits (an idle worker should stay small).
            if (request.kind() != Kind::ReadAt && request.kind() != Kind::Find)
                ::malloc_trim(0);
        }
    }

private:
    // The one request table: every request this worker answers, its own (below) and those added
    // by higher layers (the bench) or the tests' worker, each a kind and its handler.
    void declareOwnRequests()
    {
        using Handler = QByteArray (Server::*)(Received &);
        static constexpr std::pair<Kind, Handler> kOwn[] = {
            {Kind::Inspect, &Server::inspectSpec},
            {Kind::List, &Server::listEntries},
            {Kind::ListFolder, &Server::listEntries},
            {Kind::Find, &Server::findEntry},
            {Kind::OpenEntry, &Server::openEntry},
            {Kind::ReadAt, &Server::readAt},
            {Kind::OpenNested, &Server::openNested},
            {Kind::Walk, &Server::walk},
        };
        for (const auto &row : kOwn) {
            const Handler handler = row.second; // a copy: clang 14 cannot capture a structured binding
            const bool added = acts_.emplace(row.first, [this, handler](Received &request, const WorkerActContext &) { return (this->*handler)(request); }).second;
            Q_ASSERT_X(added, "worker", "a request declared twice");
            (void)added;
        }
    }

    QByteArray handle(Received &request)
    {
        auto act = acts_.find(request.kind());
        if (act == acts_.end())
            return failure(Error::make(ErrorKind::Usage, QStringLiteral("worker"), QStringLiteral("unknown request %1").arg(int(request.kind()))));
        const quint32 id = request.request();
        return act->second(request, WorkerActContext{[this, id](const QByteArray &message) { return send(wire::stamped(message, id)); },
                                                     [this, id] { return inbox_->cancelled(id); }});
    }

    QByteArray findEntry(Received &request)
    {
        auto container = takeContainer(request);
        QByteArray path;
        request >> path;
        if (!container)
            return failure(container.error());
        auto found = (*container)->find(path);
        return found ? (Message(Kind::EntryAnswer) << *found).bytes() : failure(found.error());
    }

    QByteArray openEntry(Received &request)
    {
        auto container = takeContainer(request);
        Entry entry;
        request >> entry;
        if (!container)
            return failure(container.error());
        auto content = (*container)->open(entry);
        return content ? (Message(Kind::Source) << keep(*content)).bytes() : failure(content.error());
    }

    QByteArray openNested(Received &request)
    {
        auto container = takeContainer(request);
        Entry entry;
        request >> entry;
        if (!container)
            return failure(container.error());
        auto nested = (*container)->openNested(entry, openContainer);
        return nested ? (Message(Kind::Container) << keep(*nested)).bytes() : failure(nested.error());
    }

    QByteArray inspectSpec(Received &request)
    {
        QString spec;
        quint64 headBytes = 0;
        bool allocation = false;
        request >> spec >> headBytes >> allocation;
        InspectOptions options;
        options.headBytes = size_t(std::min<quint64>(headBytes, kMaxRead));
        options.allocation = allocation;
        auto inspected = inspect(spec, options);
        if (!inspected)
            return failure(inspected.error());
        wire::InspectedFacts facts;
        facts.inspection = std::move(inspected->inspection);
        facts.directory = inspected->location.directory;
        if (inspected->container)
            facts.container = keep(inspected->container);
        if (inspected->location.source)
            facts.source = keep(inspected->location.source);
        if (!facts.inspection.directory && inspected->location.parent && inspected->location.entry) {
            facts.parent = keep(inspected->location.parent);
            facts.entry = inspected->location.entry;
        }
        return (Message(Kind::Inspected) << facts).bytes();
    }

    QByteArray listEntries(Received &request)
    {
        auto container = takeContainer(request);
        std::optional<Entry> folder;
        if (request.kind() == Kind::ListFolder) {
            folder.emplace();
            request >> *folder;
        }
        if (!container)
            return failure(container.error());
        std::vector<Entry> batch;
        bool gone = false;
        // Batches leave when full or when they have waited 50 ms, and the first entry at once: a
        // slow listing still shows its first rows at once.
        bool first = true;
        auto lastFlush = std::chrono::steady_clock::now();
        auto flush = [&] {
            lastFlush = std::chrono::steady_clock::now();
            gone = gone || !send((Message(Kind::Batch) << batch).bytes());
            if (!tProblems.empty())
                gone = gone || !send((Message(Kind::Problems) << tProblems).bytes());
            batch.clear();
            tProblems.clear();
        };
        const Container::EntrySink sink = [&](const Entry &entry) {
            batch.push_back(entry);
            if (batch.size() >= kBatchEntries || first || std::chrono::steady_clock::now() - lastFlush > std::chrono::milliseconds(50))
                flush();
            first = false;
            return !gone && !cancelArrived();
        };
        auto listed = folder ? (*container)->listDirectory(*folder, sink) : (*container)->list(sink);
        if (!batch.empty())
            flush();
        // A listing the window stopped is not a whole listing, whether the stop reached a decoder
        // (an error) or the sink between two entries (which ends the listing without one).
        const bool stopped = cancelArrived();
        Message done(Kind::Done);
        done << (!listed || stopped);
        if (!listed || stopped)
            done << (stopped ? Error::cancelled() : listed.error());
        return done.bytes();
    }

    QByteArray readAt(Received &request)
    {
        quint32 id = 0;
        quint64 offset = 0, length = 0;
        request >> id >> offset >> length;
        SourcePtr source;
        {
            const std::lock_guard lock(objects_);
            auto it = sources_.find(id);
            if (it == sources_.end())
                return failure(unknown(id));
            source = it->second;
        }
        QByteArray bytes(qsizetype(std::min(length, kMaxRead)), Qt::Uninitialized);
        auto got = source->readAt(offset, std::span<char>(bytes.data(), size_t(bytes.size())));
        if (!got)
            return failure(got.error());
        bytes.truncate(qsizetype(*got));
        return (Message(Kind::Bytes) << bytes).bytes();
    }

    // Every entry goes to the client, with the content of those in the selection, without waiting
    // for it: the socket's buffer paces the walk, a byte from the client stops it.
    QByteArray walk(Received &request)
    {
        auto container = takeContainer(request);
        QByteArray selection;
        request >> selection;
        if (!container)
            return failure(container.error());
        const QByteArray below = selection + '/';
        bool clientGone = false;
        QByteArray chunk(qsizetype(256) << 10, Qt::Uninitialized);
        wire::FrameBatch batch(fd_); // small entries' frames go out together
        auto walked = (*container)->walkSelection(selection, [&](const Entry &entry, const Container::ContentReader &read) -> Result<bool> {
            if (cancelArrived())
                return false;
            const bool content = (entry.type == EntryType::File || entry.type == EntryType::Hardlink) &&
                                 (selection.isEmpty() || entry.path == selection || entry.path.startsWith(below));
            if (!batch.add((Message(Kind::WalkEntry) << entry << content).bytes()))
                return clientGone = true, false;
            while (content) {
                auto got = read(std::span<char>(chunk.data(), size_t(chunk.size())));
                if (!got) {
                    batch.add(failure(got.error())); // the end of this entry's content, as an error
                    break;
                }
                if (!batch.addBytes(chunk.constData(), *got))
                    return clientGone = true, false;
                if (*got == 0)
                    break;
            }
            return true;
        });
        clientGone = clientGone || !batch.flush();
        if (clientGone)
            ::_exit(0);
        const bool stopped = cancelArrived(); // as for a listing: a stopped walk is not whole
        Message done(Kind::Done);
        done << (!walked || stopped);
        if (!walked || stopped)
            done << (stopped ? Error::cancelled() : walked.error());
        return done.bytes();
    }

    bool askBacking(const QString &image, const QString &backing)
    {
        int passed = -1;
        Received reply(inbox_->ask((Message(Kind::AskBacking) << image << backing).bytes(), Kind::BackingAnswer, &passed));
        if (passed >= 0)
            ::close(passed);
        bool allowed = false;
        reply >> allowed;
        return reply.ok() && allowed;
    }

    void release(Received &request)
    {
        QList<quint32> ids;
        request >> ids;
        const std::lock_guard lock(objects_);
        for (quint32 id : ids) {
            containers_.erase(id);
            sources_.erase(id);
        }
    }

    // Numbers `object` and keeps it until the client releases it.
    template <class Object>
    quint32 store(std::unordered_map<quint32, Object> &objects, const Object &object)
    {
        const std::lock_guard lock(objects_);
        const quint32 id = nextId_++;
        objects[id] = object;
        return id;
    }

    wire::SourceFacts keep(const SourcePtr &source)
    {
        const quint32 id = store(sources_, source);
        return {id, source->size(), source->name(), source->opaque()};
    }

    wire::ContainerFacts keep(const ContainerPtr &container)
    {
        const quint32 id = store(containers_, container);
        return {id,
                container->formatName(),
                container->info(),
                container->listsFolderByFolder(),
                container->mayRepeatNames(),
                container->impliesDirectories(),
                keep(container->source())};
    }

    // Every request about a container starts with its number.
    Result<ContainerPtr> takeContainer(Received &request)
    {
        quint32 id = 0;
        request >> id;
        const std::lock_guard lock(objects_);
        auto it = containers_.find(id);
        if (it == containers_.end())
            return unknown(id);
        return it->second;
    }

    static Error unknown(quint32 id)
    {
        return Error::make(ErrorKind::Usage, QStringLiteral("worker"), QStringLiteral("no object %1 in the worker").arg(id));
    }

    static QByteArray failure(const Error &error) { return (Message(Kind::Failure) << error).bytes(); }

    bool send(const QByteArray &message) { return wire::sendFrame(fd_, message); }

    // Whether the client asked to stop the request this thread serves: its Cancel has arrived
    // (the inbox reads it as it comes).
    bool cancelArrived() const { return inbox_->cancelled(wire::currentRequest()); }

    void sendTrace()
    {
        const std::vector<TraceRecord> records = IoTrace::stop();
        wire::TraceFacts trace;
        trace.files = IoTrace::files();
        QHash<const char *, quint32> layers;
        for (const TraceRecord &r : records) {
            auto it = layers.constFind(r.layer);
            if (it == layers.constEnd()) {
                it = layers.insert(r.layer, quint32(trace.layers.size()));
                trace.layers << QByteArray(r.layer);
            }
            trace.reads.push_back({quint32(r.file), *it, r.offset, r.length, r.tNs, r.thread});
        }
        send((Message(Kind::Trace) << trace).bytes());
    }

    int fd_;
    std::map<Kind, WorkerAct> acts_; // every request answered: our own and those added (the bench's)
    std::mutex objects_; // guards containers_, sources_ and nextId_ (both lanes use them)
    std::unordered_map<quint32, ContainerPtr> containers_;
    std::unordered_map<quint32, SourcePtr> sources_;
    quint32 nextId_ = 1;
    std::shared_mutex tracing_; // a traced request holds it alone
    std::unique_ptr<WorkerInbox> inbox_;
};

} // namespace

int serveWorker(int fd, std::map<Kind, WorkerAct> acts)
{
    return Server(fd, std::move(acts)).run();
}

} // namespace asc
