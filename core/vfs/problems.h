// SPDX-License-Identifier: MIT
#pragma once
// Problems that do not stop an operation — a damaged header skipped, one unreadable entry, a
// warning from a library — are reported where they happen and collected by whoever runs the
// operation: the CLI prints them and exits 1, the GUI shows one banner with the list.

#include "io/error.h"

#include <functional>

namespace asc {

using ProblemHandler = std::function<void(const Error &)>;

// Sends a problem to this thread's handler (a ProblemScope), else to the process-wide one.
void reportProblem(const Error &problem);
// How many problems this thread has reported so far (whether an operation met any).
uint64_t problemsReportedHere();
// The handler for threads without a scope (the CLI sets one; by default problems are dropped).
void setDefaultProblemHandler(ProblemHandler handler);

// Routes this thread's problems to `handler` while alive (scopes nest; the innermost wins).
class ProblemScope {
public:
    explicit ProblemScope(ProblemHandler handler);
    ~ProblemScope();
    ProblemScope(const ProblemScope &) = delete;
    ProblemScope &operator=(const ProblemScope &) = delete;

private:
    ProblemHandler handler_;
    ProblemScope *outer_;
};

} // namespace asc
