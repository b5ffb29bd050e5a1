// SPDX-License-Identifier: MIT
#pragma once
// The parent's side of the worker's questions (file_requests.h asks them): one table of the
// questions a worker may ask — a file, a scratch file, an export, a volume key, a tool's run, a
// password — each with its answer under the parent's grants (worker_grants.h).

#include "remote/facts.h"
#include "remote/wire.h"
#include "remote/worker_grants.h"

namespace asc {

// In the parent: whether `kind` is one of the worker's requests above.
bool isWorkerRequest(wire::Kind kind);
// Answers `request` (read from `fd`) under `grants`; false when the answer could not be sent.
bool answerWorkerRequest(int fd, wire::Received &request, const WorkerGrants &grants);
// ... the same for the next request read from `fd` (false once the worker has gone).
bool answerWorkerRequest(int fd, const WorkerGrants &grants);

} // namespace asc
