// SPDX-License-Identifier: MIT
// `archivescope-cli worker --socket-fd N [--max-open-files N]`: the process the GUI starts for each
// file it opens (open/worker/worker_channel.h). Not for people: it locks itself down, then
// answers requests on the socket until the GUI closes it.

#include "cli_output.h"
#include "commands.h"
#include "io/worker_process.h"
#include "open/worker/worker_server.h"

#include <cstdio>
#include <fcntl.h>
#include <sys/socket.h>

namespace asc::cli {

int runWorker(const QStringList &args, LockdownLimits limits)
{
    int fd = -1;
    for (qsizetype i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == QLatin1String("--socket-fd"))
            fd = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--max-open-files"))
            limits.maxOpenFiles = std::max(8, args[i + 1].toInt());
    }
    int type = 0;
    socklen_t length = sizeof type;
    if (fd < 0 || ::getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) != 0)
        return usage(QStringLiteral("worker: --socket-fd must name the socket the GUI passed (this command is not for people)"));
    ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    becomeWorker();
    if (auto locked = lockDown(limits); !locked) {
        std::fprintf(stderr, "archivescope worker: cannot lock down: %s\n", qPrintable(locked.error().toString()));
        return kWorkerLockdownFailed;
    }
    return serveWorker(fd);
}

} // namespace asc::cli
