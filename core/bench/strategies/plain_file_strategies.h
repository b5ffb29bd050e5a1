// SPDX-License-Identifier: MIT
#pragma once
// Strategies that read the target file with system calls directly: read, pread, fadvise-seq,
// direct (O_DIRECT), mmap. Plain files only.

#include "bench/read_strategy.h"

namespace asc {

StrategyPtr makeReadStrategy();
StrategyPtr makePreadStrategy();
StrategyPtr makeFadviseStrategy();
StrategyPtr makeDirectStrategy();
StrategyPtr makeMmapStrategy();

} // namespace asc
