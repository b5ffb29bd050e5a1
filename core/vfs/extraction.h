// SPDX-License-Identifier: MIT
#pragma once
// Safe extraction of a container's entries into a directory, used by the CLI and the GUI.
// Never writes outside the directory: entries with ".." or absolute paths are refused, every
// path is walked with O_NOFOLLOW from the directory's fd (so no symlink, not even one the archive
// created a moment ago, is written through), hardlinks may only point at files already extracted
// inside it. Files are written to temporary names and renamed into place after a sync of the
// target's filesystem (one per batch of files). One conflict rule: a name that existed before the
// extraction, or that another member of this extraction already took (two `copyright` files
// extracted without folders), is handled by the policy (refused unless told otherwise; the GUI
// asks); only a later copy of the *same* member path replaces the earlier one, as tar does with an
// appended member. Symlinks left pointing at nothing are reported. setuid/setgid/sticky bits are
// dropped. Blocks; checks the cancel flag per chunk.

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

// A name a member wants that is already taken.
struct ExtractConflict {
    QByteArray member; // the member's path in the container
    QByteArray written; // the path below the directory it would be written to
    QByteArray earlier; // the member of this extraction that took the name; empty: it was there before
};

struct ExtractOptions {
    ExistingPolicy existing = ExistingPolicy::Refuse;
    // For Ask: called on the extracting thread for each conflict; returns the choice for it
    // (anything but Ask). Setting *applyToAll makes that the answer for the rest.
    std::function<ExistingPolicy(const ExtractConflict &conflict, bool *applyToAll)> ask;
    // Every member under its own name in the directory, no folders (7-Zip's "no pathnames"); two
    // members of one name are a conflict like a name already there.
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
    uint64_t replaced = 0; // names replaced (a file there before, or an earlier member)
    uint64_t renamed = 0; // members written under a free name (keep both)
    std::vector<ExtractRefusal> refused;
    std::vector<ExtractRefusal> danglingLinks; // symlinks made whose target is not there: path, why
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
