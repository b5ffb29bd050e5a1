// SPDX-License-Identifier: MIT
// archivescope-worker: the process the GUI (and `archivescope-cli extract`) starts for each file
// it opens (worker_main.h). It answers the requests every worker answers, and the bench's.

#include "remote/bench_request.h"
#include "worker_main.h"

int main(int argc, char **argv)
{
    return asc::workerMain(argc, argv, {{asc::wire::Kind::Bench, asc::benchAct()}});
}
