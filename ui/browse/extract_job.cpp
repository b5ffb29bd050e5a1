// SPDX-License-Identifier: MIT
#include "io/task_pool.h"
#include "extract_job.h"

#include "io/units.h"
#include "vfs/path_text.h"

#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

namespace asc::ui {

static void extractAll(QPromise<ExtractSummary> &promise, QList<ExtractRequest> requests, QString directory, ExtractOptions options)
{
    ExtractSummary summary;
    CancelFlag cancel;
    uint64_t before = 0;
    for (const ExtractRequest &request : requests) {
        auto report = extractEntries(*request.container, request.selection, directory, options, cancel, [&](uint64_t bytes) {
            if (promise.isCanceled())
                cancel.cancel();
            promise.setProgressValueAndText(int(std::min<uint64_t>((before + bytes) >> 20, INT32_MAX)),
                                            sizeLabel(before + bytes));
        });
        if (!report) {
            summary.error = report.error();
            break;
        }
        summary.report.files += report->files;
        summary.report.directories += report->directories;
        summary.report.links += report->links;
        summary.report.bytes += report->bytes;
        summary.report.skipped += report->skipped;
        summary.report.replaced += report->replaced;
        summary.report.renamed += report->renamed;
        before = summary.report.bytes;
        for (const ExtractRefusal &refusal : report->refused)
            summary.refusals << pathText(refusal.path) + QStringLiteral(": ") + refusal.reason;
        for (const ExtractRefusal &link : report->danglingLinks)
            summary.danglingLinks << pathText(link.path) + QStringLiteral(": ") + link.reason;
        if (report->stopped) {
            summary.error = report->stopped;
            break;
        }
    }
    promise.addResult(std::move(summary));
}

QList<ExtractRequest> requestsFor(const EntryTree &tree, const QList<int32_t> &nodes)
{
    QList<ExtractRequest> requests;
    for (int32_t node : nodes)
        requests << ExtractRequest{tree.layer(tree.layerOf(node)).container, tree.path(node).toByteArray()};
    return requests;
}

QFuture<ExtractSummary> extractAsync(QList<ExtractRequest> requests, QString directory, ExtractOptions options)
{
    return QtConcurrent::run(taskPool(), extractAll, std::move(requests), std::move(directory), options);
}

QString describe(const ExtractSummary &summary)
{
    const ExtractReport &r = summary.report;
    QString text = QObject::tr("Extracted %1, %2, %3 (%4)")
                       .arg(countText(r.files, QObject::tr("%n file"), QObject::tr("%n files")),
                            countText(r.directories, QObject::tr("%n folder"), QObject::tr("%n folders")),
                            countText(r.links, QObject::tr("%n link"), QObject::tr("%n links")), sizeLabel(r.bytes));
    if (!summary.refusals.isEmpty())
        text += QObject::tr("; %1 refused").arg(summary.refusals.size());
    if (r.skipped)
        text += QObject::tr("; %1 skipped").arg(r.skipped);
    if (r.replaced)
        text += QObject::tr("; %1 replaced").arg(r.replaced);
    if (r.renamed)
        text += QObject::tr("; %1 kept under a new name").arg(r.renamed);
    if (!summary.danglingLinks.isEmpty())
        text += QObject::tr("; %1 pointing at nothing extracted")
                    .arg(countText(uint64_t(summary.danglingLinks.size()), QObject::tr("%n symlink"), QObject::tr("%n symlinks")));
    if (summary.error)
        text += QObject::tr("; stopped: %1").arg(summary.error->toString());
    return text;
}

} // namespace asc::ui
