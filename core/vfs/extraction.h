// SPDX-License-Identifier: MIT
#pragma once
// Safe extraction of a container's entries into a directory, used by the CLI and the GUI.
// Never writes outside the directory: entries with ".." or absolute paths are refused, every
// path is walked with O_NOFOLLOW from the directory's fd (so no symlink, not even one the archive
// created a moment ago, is written through), hardlinks may only point at files already extracted
// inside it. Files are written to temporary names and renamed into place after a sync of the
// target's filesystem (one per batch of files). A name that existed before the extraction is
// handled by the policy (refused unless told otherwise; the GUI asks); within one extraction a
// later member of a name replaces an earlier one, as tar does. setuid/setgid/sticky bits are dropped.
// Blocks; checks the cancel flag per chunk.

#include "container.h"
#include "io/cancel.h"

#include <functional>
#include <vector>

namespace asc {

// What to do with a name that was there before the extraction.
enum class ExistingPolicy {
    Refuse, // keep it, report the member as refused (the CLI's default)
    Overwrite, // replace it (never a directory)
    Skip, // keep it, count the member as skipped
    KeepBoth, // write the member under a free name: "name (2).ext"
    Ask, // call ExtractOptions::ask
};

struct ExtractOptions {
    ExistingPolicy existing = ExistingPolicy::Refuse;
    // For Ask: called on the extracting thread for each existing name; returns the choice for it
    // (anything but Ask). Setting *applyToAll makes that the answer for the rest.
    std::function<ExistingPolicy(const QByteArray &path, bool *applyToAll)> ask;
    // Every member under its own name in the directory, no folders (7-Zip's "no pathnames"); a
    // later member of a name then replaces an earlier one as within any extraction.
    bool flatten = false;
    uint64_t maxBytes = 64ULL << 30; // total bytes written; 0 = no limit
    double maxRatio = 200.0; // bytes written / container bytes; 0 = no limit
    uint64_t ratioGrace = 64ULL << 20; // the ratio only counts past this many bytes
};

struct ExtractRefusal {
    QByteArray path;
    QString reason;
};

struct ExtractReport {
    uint64_t files = 0; // files now in place (counted once per name written)
    uint64_t directories = 0;
    uint64_t links = 0;
    uint64_t bytes = 0; // bytes of the files in place (never of refused or replaced members)
    uint64_t skipped = 0; // members kept out by ExistingPolicy::Skip
    uint64_t replaced = 0; // earlier members of this extraction replaced by a later one
    std::vector<ExtractRefusal> refused;
    std::optional<Error> stopped; // a limit or cancel ended extraction early
};

// Extracts `selection` ("" = everything; a file; or a directory and all below it).
// Progress receives bytes written so far. Fails only when nothing could start (DIR unusable,
// container unreadable); per-entry problems are refusals in the report.
// "1 file, 2 directories, 0 links (6 bytes)" with the plural forms right, then what was refused
// or skipped; the CLI prints it, the GUI's own wording is translated.
QString describeReport(const ExtractReport &report);

Result<ExtractReport> extractEntries(Container &container, const QByteArray &selection, const QString &directory,
                                     const ExtractOptions &options, const CancelFlag &cancel = {},
                                     const std::function<void(uint64_t)> &progress = {});

} // namespace asc
