// SPDX-License-Identifier: MIT
#include "problems.h"

#include <mutex>

namespace asc {

static thread_local ProblemScope *tCurrent = nullptr;
static thread_local const ProblemHandler *tHandler = nullptr;

static std::mutex &defaultMutex()
{
    static std::mutex m;
    return m;
}

static ProblemHandler &defaultHandler()
{
    static ProblemHandler h;
    return h;
}

namespace {
thread_local uint64_t tReported = 0;
}

uint64_t problemsReportedHere()
{
    return tReported;
}

void reportProblem(const Error &problem)
{
    ++tReported;
    if (tHandler) {
        if (*tHandler)
            (*tHandler)(problem);
        return;
    }
    std::lock_guard lock(defaultMutex());
    if (defaultHandler())
        defaultHandler()(problem);
}

void setDefaultProblemHandler(ProblemHandler handler)
{
    std::lock_guard lock(defaultMutex());
    defaultHandler() = std::move(handler);
}

ProblemScope::ProblemScope(ProblemHandler handler)
    : handler_(std::move(handler)),
      outer_(tCurrent)
{
    tCurrent = this;
    tHandler = &handler_;
}

ProblemScope::~ProblemScope()
{
    tCurrent = outer_;
    tHandler = outer_ ? &outer_->handler_ : nullptr;
}

} // namespace asc
