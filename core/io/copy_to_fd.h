// SPDX-License-Identifier: MIT
#pragma once
// Copies a whole source to a file descriptor (stdout for `cat`, a file for exports). Where the
// bytes lie in a plain file, the kernel copies them (sendfile, no trip through user space);
// otherwise readAt into a buffer and write. Blocks; checks the cancel flag per chunk.

#include "byte_source.h"
#include "cancel.h"

namespace asc {

struct CopyOutcome {
    uint64_t bytes = 0;
    bool readerGone = false; // EPIPE: whoever read the output went away
};

// Writes `data` at offset `at` of a regular file, leaving whole zero blocks of 4 KiB (aligned
// in the file) as holes; the caller sets the file's final size (ftruncate) afterwards.
Result<size_t> writeSparse(int fd, const char *data, size_t size, uint64_t at, const QString &fdName);

Result<CopyOutcome> copyToFd(const ByteSource &source, int fd, const QString &fdName, const CancelFlag &cancel = {});

} // namespace asc
