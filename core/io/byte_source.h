// SPDX-License-Identifier: MIT
#pragma once
// A random-access byte source: a size and positional reads, no hidden position.
// Contract: every method is thread safe and may block on I/O; readAt returns fewer
// bytes than asked only at the end of the source.

#include "result.h"

#include <QByteArray>
#include <QString>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>

namespace asc {

// A run of the source's bytes that lies contiguously in an open file, so io_uring,
// O_DIRECT or mmap strategies can read the file itself.
struct FileExtent {
    int fd = -1;
    uint64_t fileOffset = 0;
    uint64_t length = 0; // bytes from the requested offset that stay contiguous
    QString file; // the file's name, for the I/O trace of a kernel copy out of it
};

class ByteSource {
public:
    virtual ~ByteSource() = default;

    virtual uint64_t size() const = 0;
    // Reads min(buf.size(), size() - offset) bytes at offset; 0 at or past the end.
    virtual Result<size_t> readAt(uint64_t offset, std::span<char> buf) const = 0;
    // What errors name: a path, or a SPEC for nested sources.
    virtual QString name() const = 0;
    // Where the bytes at `offset` lie in a plain file, if they do.
    virtual std::optional<FileExtent> fileExtent(uint64_t offset) const
    {
        (void)offset;
        return std::nullopt;
    }

    // How many bytes from `offset` are known to read as zeros without reading them (a hole of a
    // sparse file, an unallocated cluster); 0 when unknown or not a hole.
    virtual uint64_t zeroRun(uint64_t offset) const
    {
        (void)offset;
        return 0;
    }

    // Bytes with no format of their own (an extended partition holds the chain of boot records
    // that describes the logical partitions listed beside it): never probed as a container.
    virtual bool opaque() const { return false; }

    // Reads exactly buf.size() bytes or fails with a Format error naming the offset.
    Result<void> readExact(uint64_t offset, std::span<char> buf) const;
};

using SourcePtr = std::shared_ptr<const ByteSource>;

// The first min(bytes, size()) bytes (for probing and the hex view).
Result<QByteArray> readHead(const ByteSource &source, size_t bytes);

} // namespace asc
