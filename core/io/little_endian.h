// SPDX-License-Identifier: MIT
#pragma once
// Little-endian fields of on-disk structures, read from unaligned bytes (formats' own readers).

#include <cstdint>
#include <cstring>

namespace asc {

inline uint16_t le16(const char *p)
{
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
}

inline uint32_t le32(const char *p)
{
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

inline uint64_t le64(const char *p)
{
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

} // namespace asc
