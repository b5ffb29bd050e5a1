// SPDX-License-Identifier: MIT
#pragma once
// Strategies over any ByteSource (plain files, archive entries, virtual disks, partitions):
// `source` (readAt of N), `uring-qdK` (K reads of N in flight), and the framed reader over the
// consumer-side buffered stream, `buffered-stream-copy` and `buffered-stream-zero-copy`.

#include "bench/read_strategy.h"

namespace asc {

StrategyPtr makeSourceStrategy();
StrategyPtr makeAsyncStrategy(int queueDepth);
StrategyPtr makeFramedStrategy(bool zeroCopy);

} // namespace asc
