// SPDX-License-Identifier: MIT
#pragma once
// Strategies that read through a library's own buffering: stdio (setvbuf N), stdio with libc's
// default buffer, and QFile. Their system calls are what the kernel counted (/proc/thread-self/io),
// because the library decides them: that is how a hidden buffer size shows.

#include "bench/read_strategy.h"

namespace asc {

StrategyPtr makeStdioStrategy();
StrategyPtr makeStdioDefaultStrategy();
StrategyPtr makeQFileStrategy();

} // namespace asc
