// SPDX-License-Identifier: MIT
#pragma once
// Sizes as people write them: binary units (K = 1024), labelled "4 KiB", "1 MiB".

#include <QString>
#include <cstdint>
#include <optional>

namespace asc {

// "4K", "1M", "16MiB", "512": binary suffixes; nullopt when malformed.
std::optional<uint64_t> parseSize(const QString &text);
// 4096 -> "4 KiB", 1048576 -> "1 MiB", 1536 -> "1.5 KiB".
// "1 file" / "2 files": the form for n, with %n replaced (callers pass both forms through tr()).
QString countText(uint64_t n, const QString &one, const QString &many);
QString sizeLabel(uint64_t bytes);

} // namespace asc
