// SPDX-License-Identifier: MIT
#pragma once
// Opening a SPEC off the UI thread: resolve it, read the first 64 KiB for the hex view, and
// open its container if it is one.

#include "formats/image/extent.h"
#include "open/spec.h"

#include <QFuture>

namespace asc::ui {

struct OpenedSpec {
    QString spec;
    Location location;
    ContainerPtr container;  // null for plain data (then the hex view is all there is)
    QByteArray head;         // the first 64 KiB
    quint64 size = 0;
    QString formatName;      // "tar", "zip", ... or "data"
    QString problem;         // why it is not a container, when that is interesting
    QJsonObject imageInfo;   // a disk image's header, features, snapshots, backing chain
    std::vector<DiskExtent> allocation; // a disk image's map
    std::vector<Error> problems; // reported on the way (reading an outer archive of the SPEC)
};

inline constexpr qsizetype kHeadBytes = 64 * 1024;

// Legacy names are decoded from `nameCharset` (empty: as stored), for this file and what it holds.
QFuture<Result<OpenedSpec>> openSpecAsync(const QString &spec, const QByteArray &nameCharset = {});
Result<QByteArray> readHead(const ByteSource &source, qsizetype bytes = kHeadBytes);

} // namespace asc::ui
