// SPDX-License-Identifier: MIT
#pragma once
// The copy (extract) case as a read strategy: the target is written to a file in --output-dir
// with a buffer of N (read N, write N), the go-qcow2reader "copy" case. Counts read and write
// calls so a copy that silently ignores its buffer shows; the file is removed afterwards.

#include "bench/read_strategy.h"

namespace asc {

StrategyPtr makeCopyStrategy(bool fsyncAtEnd);

} // namespace asc
