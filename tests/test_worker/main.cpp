// SPDX-License-Identifier: MIT
// archivescope-test-worker: the shipped worker (app/worker) plus the tests' forbidden acts
// (forbidden_acts.h). Built for the tests only, never installed.

#include "remote/bench_request.h"
#include "forbidden_acts.h"
#include "worker/worker_main.h"

int main(int argc, char **argv)
{
    return asc::workerMain(argc, argv, {{asc::wire::Kind::Bench, asc::benchAct()}, {asc::wire::Kind::Test, asc::test::forbiddenActs()}});
}
