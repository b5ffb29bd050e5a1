// SPDX-License-Identifier: MIT
#pragma once
// The facade both shells use to learn what a SPEC is: `inspect` resolves it once, unwraps disk
// images, probes once and opens the container with the format the probe chose. The answer is a
// plain value (strings, numbers, JSON, bytes: nothing pointing into core objects), so it can
// cross a process boundary; the handle to go on listing and reading travels beside it.

#include "formats/image/extent.h"
#include "open/spec.h"

#include <QJsonObject>
#include <optional>
#include <vector>

namespace asc {

struct Inspection {
    QString spec;
    bool directory = false; // a folder inside a container
    uint64_t size = 0; // of the file or entry (a disk image: the image file)
    QString formatName; // "tar", "zip", "gpt", ...; "directory"; "data" when nothing claims it
    QJsonObject formatInfo; // the container's facts (Container::info), when it is one
    QJsonObject imageInfo; // a disk image's header, features, snapshots, backing chain
    std::vector<DiskExtent> allocation; // a disk image's map, when asked for
    QByteArray head; // the first bytes, when asked for
    std::optional<Error> openError; // probed as a container but could not be opened
    std::optional<Error> failed; // the location itself could not be read (set by the shells)
    std::vector<Error> problems; // reported on the way (an outer archive's damaged header, ...)

    bool isContainer() const { return !formatInfo.isEmpty(); }
    // What `info --json` prints (shared/CLI.md): a disk image's header with what its disk holds
    // under "content"; "format": "raw" for plain data; "type": "dir" for a folder.
    QJsonObject toJson() const;
};

struct InspectOptions {
    size_t headBytes = 0; // how much of the start to keep in `head`
    bool allocation = false; // a disk image's whole map (reads its tables)
};

// The handle beside the value: where the SPEC is and the container it opens as (null for data).
struct Inspected {
    Inspection inspection;
    Location location;
    ContainerPtr container;
};

// Blocks on I/O. Problems reported while resolving land in `inspection.problems`; legacy names
// are decoded with the calling thread's charset (NameCharsetScope).
Result<Inspected> inspect(const QString &spec, const InspectOptions &options = {});

} // namespace asc
