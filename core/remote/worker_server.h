// SPDX-License-Identifier: MIT
#pragma once
// The worker's side: answers requests (wire.h) on the socket `fd` until the client closes it.
// It holds what it opened (containers, sources) under small numbers the client names; the
// process is already locked down (sandbox/lockdown.h) when this runs.

#include "remote/wire.h"

#include <functional>
#include <map>

namespace asc {

// What an act a higher layer adds (the bench's Bench) may use besides its request.
struct WorkerActContext {
    std::function<bool(const QByteArray &message)> send; // a frame before the answer; false: the client has gone
    std::function<bool()> stopped; // whether the client asked to stop (thread-safe, cheap)
};
// Reads its fields from `request` and returns its answer (a Failure message when it failed).
using WorkerAct = std::function<QByteArray(wire::Received &request, const WorkerActContext &context)>;

// Returns when the client has gone (the process's exit status: 0).
int serveWorker(int fd, std::map<wire::Kind, WorkerAct> acts = {});

} // namespace asc
