// SPDX-License-Identifier: MIT
#pragma once
// What a sweep does when nobody says otherwise, in one place: the CLI's options and their help,
// the window's bench settings and the chart's empty axes read these.

#include <QString>
#include <cstdint>

namespace asc::bench_defaults {

inline constexpr uint64_t kSmallestBuffer = 4096; // 4 KiB
inline constexpr uint64_t kLargestBuffer = uint64_t(16) << 20; // 16 MiB
inline constexpr int kRuns = 5; // counted runs per point
inline constexpr int kWarmup = 1; // runs per point not counted
inline constexpr int kPasses = 1;

// The buffer sizes as the CLI's --sizes writes them ("4K:16M").
QString sizesText();

} // namespace asc::bench_defaults
