// SPDX-License-Identifier: MIT
#include "io/task_pool.h"
#include "listing.h"

#include "formats/archive/name_charset.h"
#include "formats/format.h"
#include "io/cancel.h"
#include "vfs/problems.h"

#include <QElapsedTimer>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

namespace asc {

// `folder` unset: the whole container; set: that folder's direct children.
static void listInBatches(QPromise<ListingBatch> &promise, ContainerPtr container, std::optional<Entry> folder)
{
    ListingBatch batch;
    const ProblemScope problems([&batch](const Error &problem) { batch.problems.push_back(problem); });
    const CancelScope stop([&promise] { return promise.isCanceled(); });
    QElapsedTimer sinceFlush;
    sinceFlush.start();
    bool first = true;
    auto flush = [&] {
        promise.addResult(std::move(batch));
        batch = ListingBatch{};
        sinceFlush.restart();
        first = false;
    };
    const Container::EntrySink sink = [&](const Entry &entry) {
        if (promise.isCanceled())
            return false;
        batch.entries.push_back(entry);
        const qint64 wait = first ? 30 : 100;
        if ((batch.entries.size() >= 512 && sinceFlush.elapsed() >= wait) || (first && batch.entries.size() >= 1000))
            flush();
        return true;
    };
    auto listed = folder ? container->listDirectory(*folder, sink) : container->list(sink);
    if (!listed && !promise.isCanceled())
        batch.error = listed.error(); // a stop is not a failure (libarchive words it as one)
    flush();
}

QFuture<ListingBatch> listAsync(ContainerPtr container)
{
    return QtConcurrent::run(taskPool(), listInBatches, std::move(container), std::optional<Entry>());
}

QFuture<ListingBatch> listFolderAsync(ContainerPtr container, Entry folder)
{
    return QtConcurrent::run(taskPool(), listInBatches, std::move(container), std::optional<Entry>(std::move(folder)));
}

QFuture<Result<ContainerPtr>> openNestedAsync(ContainerPtr parent, Entry entry, QByteArray nameCharset, CancelFlag cancel)
{
    return QtConcurrent::run(taskPool(), [parent, entry, nameCharset, cancel]() -> Result<ContainerPtr> {
        const NameCharsetScope charset(nameCharset);
        const CancelScope stop(cancel);
        return parent->openNested(entry, openContainer); // a worker's container: opened there
    });
}

} // namespace asc
