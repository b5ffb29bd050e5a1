#pragma once
// Safe extraction of a container's entries into a directory, used by the CLI and the GUI.
// Never writes outside the directory: entries with ".." or absolute paths are refused, every
// path is walked with O_NOFOLLOW from the directory's fd (so no symlink, not even one the archive
// created a moment ago, is written through), hardlinks may only point at files already extracted
// inside it. Files are written to temporary names and renamed into place after a sync of the
// target's filesystem (one per batch of files); existing files are kept unless overwriting is
// asked for. setuid/setgid/sticky bits are dropped.
// Blocks; checks the cancel flag per chunk.

#include "container.h"
#include "io/cancel.h"

#include <functional>
#include <vector>

namespace asc {

struct ExtractOptions {
    bool overwrite = false;
    uint64_t maxBytes = 64ULL << 30;  // total bytes written; 0 = no limit
    double maxRatio = 200.0;          // bytes written / container bytes; 0 = no limit
    uint64_t ratioGrace = 64ULL << 20; // the ratio only counts past this many bytes
};

struct ExtractRefusal {
    QByteArray path;
    QString reason;
};

struct ExtractReport {
    uint64_t files = 0;
    uint64_t directories = 0;
    uint64_t links = 0;
    uint64_t bytes = 0;
    std::vector<ExtractRefusal> refused;
    std::optional<Error> stopped; // a limit or cancel ended extraction early
};

// Extracts `selection` ("" = everything; a file; or a directory and all below it).
// Progress receives bytes written so far. Fails only when nothing could start (DIR unusable,
// container unreadable); per-entry problems are refusals in the report.
Result<ExtractReport> extractEntries(Container &container, const QByteArray &selection, const QString &directory,
                                     const ExtractOptions &options, const CancelFlag &cancel = {},
                                     const std::function<void(uint64_t)> &progress = {});

} // namespace asc
