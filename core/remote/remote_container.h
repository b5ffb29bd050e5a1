// SPDX-License-Identifier: MIT
#pragma once
// A container and a byte source that live in a worker process (worker_channel.h), used like any
// other: the tree lists them, extraction walks them (the bytes are written here, by this
// process), the hex view reads them. Every parse happens in the worker.

#include "open/inspection.h"
#include "remote/worker_channel.h"

namespace asc {

class RemoteSource final : public ByteSource {
public:
    RemoteSource(WorkerPtr worker, const wire::SourceFacts &facts);
    ~RemoteSource() override;
    uint64_t size() const override { return facts_.size; }
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override;
    QString name() const override { return facts_.name; }
    bool opaque() const override { return facts_.opaque; }

private:
    WorkerPtr worker_;
    wire::SourceFacts facts_;
};

class RemoteContainer final : public Container {
public:
    RemoteContainer(WorkerPtr worker, wire::ContainerFacts facts);
    ~RemoteContainer() override;

    QString formatName() const override { return facts_.formatName; }
    Result<void> list(const EntrySink &sink) override;
    Result<SourcePtr> open(const Entry &entry) override;
    QJsonObject info() const override { return facts_.info; }
    Result<void> walk(const ContentSink &sink) override { return walkSelection({}, sink); }
    Result<void> walkSelection(const QByteArray &selection, const ContentSink &sink) override;
    bool listsFolderByFolder() const override { return facts_.listsFolderByFolder; }
    Result<void> listDirectory(const Entry &dir, const EntrySink &sink) override;
    bool mayRepeatNames() const override { return facts_.mayRepeatNames; }
    Result<Entry> find(const QByteArray &path) override;
    bool impliesDirectories() const override { return facts_.impliesDirectories; }
    const SourcePtr &source() const override { return source_; }

    // Probed and parsed in the worker: `opener` is not used.
    Result<ContainerPtr> openNested(const Entry &entry, const ContainerOpener &opener) override;
    bool reachable() const override { return worker_->alive(); }
    const WorkerPtr &worker() const { return worker_; }

private:
    Result<void> listing(wire::Kind kind, const std::optional<Entry> &folder, const EntrySink &sink);

    WorkerPtr worker_;
    wire::ContainerFacts facts_;
    SourcePtr source_;
};

// inspect() (open/inspection.h) done by `worker`: the container and source in the answer are
// the worker's. A disk image's map and the head are in the inspection as usual.
Result<Inspected> inspectIn(const WorkerPtr &worker, const QString &spec, const InspectOptions &options = {});

} // namespace asc
