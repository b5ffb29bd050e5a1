// SPDX-License-Identifier: MIT
#include "proc_io.h"

#include "io/file_source.h"

#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace asc {

namespace {

} // namespace

// The counters from an open io file: read again from its start (the kernel makes them afresh).
std::optional<ProcIo> readProcIoFile(int fd)
{
    char text[1024];
    const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
    if (n <= 0)
        return std::nullopt;
    text[n] = '\0';
    ProcIo io;
    struct Field {
        const char *key;
        uint64_t *value;
    } fields[] = {{"rchar: ", &io.rchar}, {"wchar: ", &io.wchar}, {"syscr: ", &io.syscr}, {"syscw: ", &io.syscw}, {"read_bytes: ", &io.readBytes}, {"write_bytes: ", &io.writeBytes}};
    for (const Field &field : fields)
        if (const char *at = std::strstr(text, field.key))
            *field.value = std::strtoull(at + std::strlen(field.key), nullptr, 10);
    return io;
}

namespace {

// This process's or thread's io file, opened once (through the file opener: a worker's parent
// passes it) and kept; opened again in a child after fork, or in another thread.
class OwnIoFile {
public:
    ~OwnIoFile()
    {
        if (fd_ >= 0)
            ::close(fd_);
    }
    std::optional<ProcIo> read(ProcIoScope scope)
    {
        const pid_t pid = ::getpid(), tid = ::gettid();
        const pid_t owner = scope == ProcIoScope::Thread ? tid : pid;
        if (owner_ != owner) {
            if (fd_ >= 0)
                ::close(fd_);
            char path[64];
            if (scope == ProcIoScope::Thread)
                std::snprintf(path, sizeof path, "/proc/%d/task/%d/io", int(pid), int(tid));
            else
                std::snprintf(path, sizeof path, "/proc/%d/io", int(pid));
            fd_ = openReadOnly(QByteArray(path));
            owner_ = owner;
        }
        return fd_ >= 0 ? readProcIoFile(fd_) : std::nullopt;
    }

private:
    int fd_ = -1;
    pid_t owner_ = 0;
};

} // namespace

std::optional<ProcIo> readProcIo(ProcIoScope scope)
{
    thread_local OwnIoFile process, thread;
    return scope == ProcIoScope::Thread ? thread.read(scope) : process.read(scope);
}

std::optional<ProcIo> readProcIo(int pid)
{
    char path[40];
    std::snprintf(path, sizeof path, "/proc/%d/io", pid);
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    auto io = readProcIoFile(fd);
    ::close(fd);
    return io;
}

} // namespace asc
