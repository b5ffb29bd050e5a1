// SPDX-License-Identifier: MIT
#include "bench_defaults.h"

namespace asc::bench_defaults {

QString sizesText()
{
    auto shortSize = [](uint64_t bytes) {
        return bytes >= (uint64_t(1) << 20) ? QStringLiteral("%1M").arg(bytes >> 20) : QStringLiteral("%1K").arg(bytes >> 10);
    };
    return shortSize(kSmallestBuffer) + QLatin1Char(':') + shortSize(kLargestBuffer);
}

} // namespace asc::bench_defaults
