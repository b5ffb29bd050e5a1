// SPDX-License-Identifier: MIT
#pragma once
// The worker program's body: reads its options, locks the process down, then serves requests
// with `acts` added to the ones every worker answers (remote/worker_server.h). The shipped
// worker (main.cpp) adds the bench; the tests' worker (tests/test_worker) adds acts that try
// what the lockdown forbids, so the shipped one cannot be asked to crash or allocate forever.

#include "remote/worker_server.h"

namespace asc {

int workerMain(int argc, char **argv, std::map<wire::Kind, WorkerAct> acts);

} // namespace asc
