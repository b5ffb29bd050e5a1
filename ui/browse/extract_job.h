// SPDX-License-Identifier: MIT
#pragma once
// Safe extraction of selected entries on a worker thread, with progress (bytes) and cancel.

#include "vfs/entry_tree.h"
#include "vfs/extraction.h"

#include <QFuture>

namespace asc::ui {

struct ExtractRequest {
    ContainerPtr container;
    QByteArray selection; // "" = everything
};

struct ExtractSummary {
    ExtractReport report; // summed over the requests
    QStringList refusals; // "path: reason"
    QStringList danglingLinks; // "path: points at 'x', which was not extracted"
    std::optional<Error> error;
};

// One request per node (a file, a folder with what is below it, inside its own layer's container).
QList<ExtractRequest> requestsFor(const EntryTree &tree, const QList<int32_t> &nodes);
QFuture<ExtractSummary> extractAsync(QList<ExtractRequest> requests, QString directory, ExtractOptions options);
// Human summary, e.g. "Extracted 12 files, 3 folders (1.2 MiB); 2 refused".
QString describe(const ExtractSummary &summary);

} // namespace asc::ui
