#pragma once
// Safe extraction of selected entries on a worker thread, with progress (bytes) and cancel.

#include "vfs/extraction.h"

#include <QFuture>

namespace asc::ui {

struct ExtractRequest {
    ContainerPtr container;
    QByteArray selection; // "" = everything
};

struct ExtractSummary {
    ExtractReport report;      // summed over the requests
    QStringList refusals;      // "path: reason"
    std::optional<Error> error;
};

QFuture<ExtractSummary> extractAsync(QList<ExtractRequest> requests, QString directory, ExtractOptions options);
// Human summary, e.g. "Extracted 12 files, 3 folders (1.2 MiB); 2 refused".
QString describe(const ExtractSummary &summary);

} // namespace asc::ui
