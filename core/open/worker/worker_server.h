// SPDX-License-Identifier: MIT
#pragma once
// The worker's side: answers requests (wire.h) on the socket `fd` until the client closes it.
// It holds what it opened (containers, sources) under small numbers the client names; the
// process is already locked down (io/lockdown.h) when this runs.

namespace asc {

// Returns when the client has gone (the process's exit status: 0).
int serveWorker(int fd);

} // namespace asc
