// SPDX-License-Identifier: MIT
// archivescope-worker --socket-fd N [--memory-limit BYTES] [--max-open-files N] [--allow-backing]
// [--charset NAME] [--rings PLAIN,POLLED]:
// the process the GUI (and `archivescope-cli extract`) starts for each file it opens
// (remote/worker_channel.h). Not for people: it locks itself down before it reads a byte,
// then answers requests on the socket until its parent closes it. Its own small program (Qt Core
// and the parsers, no widgets), so an idle worker stays small.

#include "worker_main.h"
#include "bench/machine_info.h"
#include "open/reading_policy.h"
#include "sandbox/worker_process.h"
#include "remote/file_requests.h"
#include "sandbox/process_setup.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/socket.h>

namespace asc {

int workerMain(int argc, char **argv, std::map<wire::Kind, WorkerAct> acts)
{
    useUtf8Locale();
    int fd = -1;
    LockdownLimits limits;
    limits.mayOpenFiles = false; // the parent opens what the file needs and passes descriptors
    QByteArray charset;
    for (int i = 1; i < argc; ++i) {
        const bool hasValue = i + 1 < argc;
        if (std::strcmp(argv[i], "--socket-fd") == 0 && hasValue)
            fd = std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--memory-limit") == 0 && hasValue)
            limits.memoryBytes = std::strtoull(argv[++i], nullptr, 10);
        else if (std::strcmp(argv[i], "--max-open-files") == 0 && hasValue)
            limits.maxOpenFiles = std::max(8, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--allow-backing") == 0)
            backingPolicy().allowOutside = true;
        else if (std::strcmp(argv[i], "--charset") == 0 && hasValue)
            charset = argv[++i];
        else if (std::strcmp(argv[i], "--rings") == 0 && hasValue) // a worker that benchmarks
            std::sscanf(argv[++i], "%d,%d", &limits.plainRings, &limits.polledRings);
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
    prepareToOpenNothing(charset);
    limits.plainRings = std::clamp(limits.plainRings, 0, 8);
    limits.polledRings = std::clamp(limits.polledRings, 0, 8);
    if (limits.plainRings + limits.polledRings > 0)
        prepareMachineInfo(); // what a result records about the machine, read while it may
    becomeWorker();
    if (auto locked = lockDown(limits); !locked) {
        std::fprintf(stderr, "archivescope-worker: cannot lock down: %s\n", qPrintable(locked.error().toString()));
        std::fflush(nullptr);
        ::_exit(kWorkerLockdownFailed);
    }
    const int status = serveWorker(fd, std::move(acts));
    // _exit(): after becomeWorker() an exit() means a library gave up (see there).
    std::fflush(nullptr);
    ::_exit(status);
}

} // namespace asc
