// SPDX-License-Identifier: MIT
// archivescope-worker --socket-fd N [--memory-limit BYTES] [--max-open-files N] [--allow-backing]
// [--charset NAME]:
// the process the GUI (and `archivescope-cli extract`) starts for each file it opens
// (open/worker/worker_channel.h). Not for people: it locks itself down before it reads a byte,
// then answers requests on the socket until its parent closes it. Its own small program (Qt Core
// and the parsers, no widgets), so an idle worker stays small.

#include "open/reading_policy.h"
#include "io/worker_process.h"
#include "open/worker/worker_server.h"
#include "process_setup.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <ctime>
#include <iconv.h>
#include <vector>
#include <sys/socket.h>

int main(int argc, char **argv)
{
    asc::useUtf8Locale();
    int fd = -1;
    asc::LockdownLimits limits;
    limits.mayOpenFiles = false; // the parent opens what the file needs and passes descriptors
    // Names are decoded with iconv, whose converters are shared objects loaded on first use: loaded
    // now, before opening becomes impossible, and kept (an open converter keeps its module).
    std::vector<const char *> charsets = {"UTF-8", "UTF-16LE", "UTF-16BE", "CP437", "CP1252", "ISO-8859-1"};
    for (int i = 1; i < argc; ++i) {
        const bool hasValue = i + 1 < argc;
        if (std::strcmp(argv[i], "--socket-fd") == 0 && hasValue)
            fd = std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--memory-limit") == 0 && hasValue)
            limits.memoryBytes = std::strtoull(argv[++i], nullptr, 10);
        else if (std::strcmp(argv[i], "--max-open-files") == 0 && hasValue)
            limits.maxOpenFiles = std::max(8, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--allow-backing") == 0)
            asc::backingPolicy().allowOutside = true;
        else if (std::strcmp(argv[i], "--charset") == 0 && hasValue)
            charsets.push_back(argv[++i]);
    }
    int type = 0;
    socklen_t length = sizeof type;
    if (fd < 0 || ::getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) != 0) {
        std::fputs("archivescope-worker: started by ArchiveScope for each file it opens; not for use by hand\n", stderr);
        return 2;
    }
    ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    if (limits.memoryBytes < (uint64_t(64) << 20))
        limits.memoryBytes = uint64_t(64) << 20;
    for (const char *charset : charsets) {
        for (const auto &[to, from] : {std::pair{"UTF-8", charset}, std::pair{charset, "UTF-8"}})
            (void)::iconv_open(to, from); // kept open on purpose
    }
    // The local time zone (zip and other DOS times are local): read now, kept by the C library.
    ::tzset();
    asc::becomeWorker();
    if (auto locked = asc::lockDown(limits); !locked) {
        std::fprintf(stderr, "archivescope-worker: cannot lock down: %s\n", qPrintable(locked.error().toString()));
        return asc::kWorkerLockdownFailed;
    }
    return asc::serveWorker(fd);
}
