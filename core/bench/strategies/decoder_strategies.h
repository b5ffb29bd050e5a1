// SPDX-License-Identifier: MIT
#pragma once
// Decompressors as benchmark strategies, for a compressed file: zlib's inflate, ISA-L's inflate
// (our gzip filter), libdeflate (whole members in memory), xz with one thread and with one per
// core, zstd, and libarchive's own filters. The swept size is the compressed bytes read per
// call; the throughput counts decompressed bytes.

#include "bench/read_strategy.h"

namespace asc {

std::vector<StrategyPtr> makeDecoderStrategies();

} // namespace asc
