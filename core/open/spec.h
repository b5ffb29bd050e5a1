// SPDX-License-Identifier: MIT
#pragma once
// SPECs: `outer!/inner/path!/deeper`. A file path, then entries inside containers, to any depth,
// without temporary files. Disk images are transparent (their virtual disk is what is probed).
// In the open layer: resolving a SPEC probes formats.

#include "vfs/container.h"

#include <QList>
#include <optional>

namespace asc {

struct SpecParts {
    QString file; // the path on the real filesystem
    QList<QByteArray> inner; // each nested path, normalised
};
// Splits at "!/" — unless the whole SPEC names an existing file (names may contain "!/").
SpecParts splitSpec(const QString &spec);
// The parts as a SPEC again (inner paths as splitSpec normalised them).
QString joinSpec(const SpecParts &parts);
// The SPEC of what holds the last inner part ("a.tar!/d/f" -> "a.tar"); the SPEC itself when it
// has no inner part.
QString parentSpec(const QString &spec);

struct Location {
    QString spec;
    SourcePtr source; // the bytes here (a disk image's virtual disk); null for a directory
    SourcePtr raw; // the bytes before disk images were unwrapped (the image file itself)
    ContainerPtr parent; // the container holding `entry`; null for the outer file
    std::optional<Entry> entry; // this location's entry inside `parent`
    QByteArray directory; // when this names a directory inside `parent`: its path ("" = root)
    bool isDirectory() const { return !source; }
};

// Resolves every part of the SPEC. Blocks on I/O. `unwrapLast` false keeps the last part's own
// bytes (a disk image file rather than its virtual disk: cat --raw).
Result<Location> resolve(const QString &spec, bool unwrapLast = true);
// The container at a location: the one the location's bytes open as, or for a directory its parent.
Result<ContainerPtr> containerAt(const Location &location);

} // namespace asc
