// SPDX-License-Identifier: MIT
#include "cancel.h"

namespace asc {

static thread_local CancelScope *innermost = nullptr;
static thread_local const std::function<bool()> *innermostTest = nullptr;

CancelScope::CancelScope(std::function<bool()> stopped)
    : stopped_(std::move(stopped)),
      outer_(innermost)
{
    innermost = this;
    innermostTest = &stopped_;
}

CancelScope::CancelScope(const CancelFlag &flag)
    : CancelScope([flag] { return flag.isCancelled(); })
{
}

CancelScope::~CancelScope()
{
    innermost = outer_;
    innermostTest = outer_ ? &outer_->stopped_ : nullptr;
}

bool stopRequested()
{
    return innermostTest && (*innermostTest)();
}

} // namespace asc
