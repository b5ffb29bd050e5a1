// SPDX-License-Identifier: MIT
#pragma once
// A plain file read with pread(2). Opened read-only with O_CLOEXEC: the file is never written.

#include "byte_source.h"

#include <functional>

namespace asc {

// Where FileSource::open gets its descriptor in a process that may not open files itself (the
// worker: its parent opens what its policy allows and passes the descriptor). Returns a read-only
// descriptor, or -errno. Unset: open(2). Process-wide; set it before any thread opens a file.
using FileOpener = std::function<int(const QByteArray &nativePath)>;
void setFileOpener(FileOpener opener);

// Opens `nativePath` read-only (through the file opener where one is set), then adds
// `statusFlags` (O_DIRECT, O_NOATIME: fcntl F_SETFL). A descriptor, or -errno.
int openReadOnly(const QByteArray &nativePath, int statusFlags = 0);

class FileSource final : public ByteSource {
public:
    // Opens `path` read-only. Directories and unreadable files are errors.
    static Result<std::shared_ptr<FileSource>> open(const QString &path);
    ~FileSource() override;
    FileSource(const FileSource &) = delete;
    FileSource &operator=(const FileSource &) = delete;

    uint64_t size() const override { return size_; }
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override;
    QString name() const override { return path_; }
    std::optional<FileExtent> fileExtent(uint64_t offset) const override;
    uint64_t zeroRun(uint64_t offset) const override;

    int fd() const { return fd_; }
    const QString &path() const { return path_; }

private:
    FileSource(QString path, int fd, uint64_t size);
    QString path_;
    int fd_;
    uint64_t size_;
};

} // namespace asc
