// SPDX-License-Identifier: MIT
#pragma once
// Big-endian fields of on-disk structures (XFS, qcow2), read from unaligned bytes.

#include <QtEndian>
#include <cstdint>

namespace asc {

inline uint16_t be16(const char *p)
{
    return qFromBigEndian<uint16_t>(p);
}

inline uint32_t be32(const char *p)
{
    return qFromBigEndian<uint32_t>(p);
}

inline uint64_t be64(const char *p)
{
    return qFromBigEndian<uint64_t>(p);
}

} // namespace asc
