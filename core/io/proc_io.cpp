// SPDX-License-Identifier: MIT
#include "proc_io.h"

#include <cstdio>
#include <cstring>

namespace asc {

static std::optional<ProcIo> readProcIoFile(const char *path)
{
    FILE *f = std::fopen(path, "re");
    if (!f)
        return std::nullopt;
    ProcIo io;
    char key[32];
    unsigned long long value = 0;
    while (std::fscanf(f, "%31[^:]: %llu\n", key, &value) == 2) {
        if (!std::strcmp(key, "rchar"))
            io.rchar = value;
        else if (!std::strcmp(key, "wchar"))
            io.wchar = value;
        else if (!std::strcmp(key, "syscr"))
            io.syscr = value;
        else if (!std::strcmp(key, "syscw"))
            io.syscw = value;
        else if (!std::strcmp(key, "read_bytes"))
            io.readBytes = value;
        else if (!std::strcmp(key, "write_bytes"))
            io.writeBytes = value;
    }
    std::fclose(f);
    return io;
}

std::optional<ProcIo> readProcIo(ProcIoScope scope)
{
    return readProcIoFile(scope == ProcIoScope::Thread ? "/proc/thread-self/io" : "/proc/self/io");
}

std::optional<ProcIo> readProcIo(int pid)
{
    char path[40];
    std::snprintf(path, sizeof path, "/proc/%d/io", pid);
    return readProcIoFile(path);
}

} // namespace asc
