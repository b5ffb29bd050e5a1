// SPDX-License-Identifier: MIT
#pragma once
// The tests' request (wire::Kind::Test): the worker tries one thing its lockdown forbids or one
// way a worker dies — crash, allocate, spin, open-write, socket, exec, ptrace, read, and
// ask-parent:PATH (a file through the parent's policy) — and answers what the attempt came to
// ("allowed" or "refused: why"). Only archivescope-test-worker registers it.

#include "remote/worker_server.h"

namespace asc::test {

WorkerAct forbiddenActs();

} // namespace asc::test
