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

Result<CopyOutcome> copyToFd(const ByteSource &source, int fd, const QString &fdName, const CancelFlag &cancel = {});

} // namespace asc
