// SPDX-License-Identifier: MIT
#pragma once
// Lists a container on a worker thread and hands entries over in batches (small first, so the
// first rows show at once; then about every 100 ms). Cancel the future to stop: the request
// reaches the reads themselves (a CancelScope), so it is seen inside one huge entry too.

#include "io/cancel.h"
#include "vfs/container.h"

#include <QFuture>
#include <optional>
#include <vector>

namespace asc {

struct ListingBatch {
    std::vector<Entry> entries;
    std::vector<Error> problems; // reported while reading these (a damaged header skipped, ...)
    std::optional<Error> error; // set on the last batch when listing failed
};

QFuture<ListingBatch> listAsync(ContainerPtr container);
// The direct children of one folder (an empty path: the top), for containers read folder by folder.
QFuture<ListingBatch> listFolderAsync(ContainerPtr container, Entry folder);

// Opens an entry's content as a container (a nested archive) off the UI thread; legacy names
// decoded from `nameCharset` (empty: as stored). `cancel` stops its reads.
QFuture<Result<ContainerPtr>> openNestedAsync(ContainerPtr parent, Entry entry, QByteArray nameCharset, CancelFlag cancel = {});

} // namespace asc
