// SPDX-License-Identifier: MIT
#pragma once
// The pxar read paths as benchmark strategies: the sequential decoder and the random-access
// accessor, each sync and async, decoding every entry and reading every payload. The swept size
// is the decoder's buffer capacity (and the accessor's content read size).

#include "bench/read_strategy.h"

namespace asc {

StrategyPtr makePxarDecoderStrategy(bool async);
StrategyPtr makePxarAccessorStrategy(bool async);

} // namespace asc
