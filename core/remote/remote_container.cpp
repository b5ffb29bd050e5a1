// SPDX-License-Identifier: MIT
#include "remote_container.h"

#include <cstring>

namespace asc {

using wire::Kind;
using wire::Message;

namespace {

constexpr uint64_t kReadPiece = 16u << 20; // the most one ReadAt brings

template <typename T>
Result<T> field(WorkerChannel &worker, wire::Received &answer, Kind expected)
{
    T value{};
    if (answer.kind() == expected)
        answer >> value;
    if (answer.kind() != expected || !answer.ok())
        return worker.broken(QStringLiteral("answer %1 to a request for %2").arg(int(answer.kind())).arg(int(expected)));
    return value;
}

// A request answered with one value of the `expected` kind.
template <typename T>
Result<T> askFor(WorkerChannel &worker, Kind kind, const WorkerChannel::Fields &fields, Kind expected)
{
    auto answer = worker.ask(kind, fields);
    if (!answer)
        return std::move(answer).error();
    return field<T>(worker, *answer, expected);
}

// The end of a list or walk: whether it failed, and why.
Result<void> doneOf(WorkerChannel &worker, wire::Received &done)
{
    bool failed = false;
    done >> failed;
    if (!failed)
        return {};
    Error error;
    done >> error;
    if (!done.ok())
        return worker.broken(QStringLiteral("the end of a listing"));
    return error;
}

} // namespace

RemoteSource::RemoteSource(WorkerPtr worker, const wire::SourceFacts &facts)
    : worker_(std::move(worker)),
      facts_(facts)
{
}

RemoteSource::~RemoteSource()
{
    worker_->release(facts_.id);
}

Result<size_t> RemoteSource::readAt(uint64_t offset, std::span<char> buf) const
{
    size_t done = 0;
    while (done < buf.size() && offset + done < facts_.size) {
        const uint64_t want = std::min<uint64_t>(buf.size() - done, kReadPiece);
        auto bytes = askFor<QByteArray>(
            *worker_, Kind::ReadAt, [&](Message &m) { m << facts_.id << quint64(offset + done) << quint64(want); }, Kind::Bytes);
        if (!bytes)
            return std::move(bytes).error();
        if (uint64_t(bytes->size()) > want)
            return worker_->broken(QStringLiteral("more bytes than asked"));
        std::memcpy(buf.data() + done, bytes->constData(), size_t(bytes->size()));
        done += size_t(bytes->size());
        if (uint64_t(bytes->size()) < want)
            break;
    }
    return done;
}

RemoteContainer::RemoteContainer(WorkerPtr worker, wire::ContainerFacts facts)
    : worker_(std::move(worker)),
      facts_(std::move(facts)),
      source_(std::make_shared<RemoteSource>(worker_, facts_.source))
{
}

RemoteContainer::~RemoteContainer()
{
    worker_->release(facts_.id);
}

Result<void> RemoteContainer::list(const EntrySink &sink)
{
    return listing(Kind::List, std::nullopt, sink);
}

Result<void> RemoteContainer::listDirectory(const Entry &dir, const EntrySink &sink)
{
    return listing(Kind::ListFolder, dir, sink);
}

Result<void> RemoteContainer::listing(Kind kind, const std::optional<Entry> &folder, const EntrySink &sink)
{
    auto fields = [&](Message &m) {
        m << facts_.id;
        if (folder)
            m << *folder;
    };
    return worker_->converse(kind, fields, [&]() -> Result<void> {
        bool enough = false; // the sink said stop: the rest is drained, not shown
        for (;;) {
            auto answer = worker_->next();
            if (!answer)
                return std::move(answer).error();
            if (answer->kind() == Kind::Done) {
                auto done = doneOf(*worker_, *answer);
                return enough ? Result<void>() : done;
            }
            auto batch = field<std::vector<Entry>>(*worker_, *answer, Kind::Batch);
            if (!batch)
                return std::move(batch).error();
            for (const Entry &entry : *batch) {
                if (enough || sink(entry))
                    continue;
                enough = true;
                if (auto told = worker_->reply(Message(Kind::Cancel).bytes()); !told)
                    return told;
            }
        }
    });
}

Result<Entry> RemoteContainer::find(const QByteArray &path)
{
    return askFor<Entry>(
        *worker_, Kind::Find, [&](Message &m) { m << facts_.id << path; }, Kind::EntryAnswer);
}

Result<SourcePtr> RemoteContainer::open(const Entry &entry)
{
    auto facts = askFor<wire::SourceFacts>(
        *worker_, Kind::OpenEntry, [&](Message &m) { m << facts_.id << entry; }, Kind::Source);
    if (!facts)
        return std::move(facts).error();
    return SourcePtr(std::make_shared<RemoteSource>(worker_, *facts));
}

Result<ContainerPtr> RemoteContainer::openNested(const Entry &entry, const ContainerOpener &)
{
    auto facts = askFor<wire::ContainerFacts>(
        *worker_, Kind::OpenNested, [&](Message &m) { m << facts_.id << entry; }, Kind::Container);
    if (!facts)
        return std::move(facts).error();
    return ContainerPtr(std::make_shared<RemoteContainer>(worker_, std::move(*facts)));
}

Result<void> RemoteContainer::walkSelection(const QByteArray &selection, const ContentSink &sink)
{
    return worker_->converse(
        Kind::Walk, [&](Message &m) { m << facts_.id << selection; }, [&]() -> Result<void> {
        std::optional<Error> sinkError;
        bool enough = false; // the sink said stop: the rest is drained, not shown
        // The content of the current entry as it streams in: what a read has not taken yet.
        bool contentOpen = false;
        std::optional<wire::Received> message; // holds the bytes `piece` points into
        QByteArrayView piece;
        qsizetype taken = 0;
        const ContentReader reader = [&](std::span<char> out) -> Result<size_t> {
            if (taken == piece.size()) {
                if (!contentOpen || out.empty())
                    return size_t(0);
                auto bytes = worker_->next(); // a Failure comes back as its Error
                if (!bytes) {
                    contentOpen = false;
                    return std::move(bytes).error();
                }
                message = std::move(*bytes);
                const auto view = message->bytesView();
                if (!view)
                    return worker_->broken(QStringLiteral("answer %1 inside an entry's content").arg(int(message->kind())));
                piece = *view;
                taken = 0;
                contentOpen = !piece.isEmpty();
                if (piece.isEmpty())
                    return size_t(0);
            }
            const size_t n = std::min(out.size(), size_t(piece.size() - taken));
            std::memcpy(out.data(), piece.constData() + taken, n);
            taken += qsizetype(n);
            return n;
        };
        for (;;) {
            auto answer = worker_->next();
            if (!answer)
                return std::move(answer).error();
            if (answer->kind() == Kind::Done) {
                auto done = doneOf(*worker_, *answer);
                if (sinkError)
                    return *sinkError;
                return enough ? Result<void>() : done;
            }
            Entry entry;
            bool content = false;
            if (answer->kind() == Kind::WalkEntry)
                *answer >> entry >> content;
            if (answer->kind() != Kind::WalkEntry || !answer->ok())
                return worker_->broken(QStringLiteral("answer %1 in a walk").arg(int(answer->kind())));
            contentOpen = content;
            piece = {};
            taken = 0;
            if (!enough) {
                auto more = sink(entry, reader);
                if (!more)
                    sinkError = std::move(more).error();
                if (!more || !*more) {
                    enough = true;
                    if (auto told = worker_->reply(Message(Kind::Cancel).bytes()); !told)
                        return told;
                }
            }
            // What the sink left of the content is read and dropped.
            while (contentOpen) {
                auto rest = worker_->next();
                if (!rest) {
                    if (!worker_->alive())
                        return std::move(rest).error();
                    break; // the entry's content ended in an error
                }
                const auto bytes = rest->bytesView();
                if (!bytes)
                    return worker_->broken(QStringLiteral("answer %1 inside an entry's content").arg(int(rest->kind())));
                contentOpen = !bytes->isEmpty();
            }
        } });
}

Result<Inspected> inspectIn(const WorkerPtr &worker, const QString &spec, const InspectOptions &options)
{
    auto facts = askFor<wire::InspectedFacts>(
        *worker, Kind::Inspect, [&](Message &m) { m << spec << quint64(options.headBytes) << options.allocation; }, Kind::Inspected);
    if (!facts)
        return std::move(facts).error();
    Inspected out;
    out.inspection = std::move(facts->inspection);
    out.location.spec = spec;
    out.location.directory = facts->directory;
    if (facts->container)
        out.container = std::make_shared<RemoteContainer>(worker, std::move(*facts->container));
    if (facts->source) {
        out.location.source = std::make_shared<RemoteSource>(worker, *facts->source);
        out.location.raw = out.location.source;
    } else {
        out.location.parent = out.container; // a folder: its container
    }
    if (facts->parent) {
        out.location.parent = std::make_shared<RemoteContainer>(worker, std::move(*facts->parent));
        out.location.entry = facts->entry;
    }
    return out;
}

} // namespace asc
