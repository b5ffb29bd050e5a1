// SPDX-License-Identifier: MIT
#pragma once
// Files a disk image names beside itself — a qcow2's backing file, a VMDK descriptor's extents —
// resolved one way for every format: relative names from the image's folder; a file outside that
// folder (an absolute name, "../") only when the backing policy allows it or the user says yes
// (images name arbitrary paths: following them silently would read files the user never chose).

#include "io/file_source.h"

namespace asc {

struct SiblingRequest {
    const FileSource &image; // the image naming the file (a plain file: inside a container nothing is followed)
    QString stored; // the name as the image stores it
    QString what; // "backing file", "extent file": for messages
    std::optional<uint64_t> offset; // where the name is stored, for errors
};

// The canonical path of the file, or an error naming the image, the stored name and why.
Result<QString> resolveSibling(const SiblingRequest &request);

} // namespace asc
