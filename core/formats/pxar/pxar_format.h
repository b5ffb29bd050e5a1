// SPDX-License-Identifier: MIT
#pragma once
// pxar item types, sizes and the goodbye-table name hash (SipHash-2-4 with the format's key).
// Spec: shared/specs/pxar-format.md.

#include <QByteArrayView>
#include <cstdint>

namespace asc::pxar {

enum : uint64_t {
    kFormatVersion = 0x730f6c75df16a40dULL,
    kPrelude = 0xe309d79d9f7b771bULL,
    kEntry = 0xd5956474e588acefULL,
    kEntryV1 = 0x11da850a1c1cceffULL,
    kFilename = 0x16701121063917b3ULL,
    kSymlink = 0x27f971e7dbf5dc5fULL,
    kHardlink = 0x51269c8422bd7275ULL,
    kDevice = 0x9fc9e906586d5ce9ULL,
    kXattr = 0x0dab0229b57dcd03ULL,
    kAclUser = 0x2ce8540a457d55b8ULL,
    kAclGroup = 0x136e3eceb04c03abULL,
    kAclGroupObj = 0x10868031e9582876ULL,
    kAclDefault = 0xbbbb13415a6896f5ULL,
    kAclDefaultUser = 0xc89357b40532cd1fULL,
    kAclDefaultGroup = 0xf90a8a5816038ffeULL,
    kFcaps = 0x2da9dd9db5f7fb67ULL,
    kQuotaProjid = 0xe07540e82f7d1cbbULL,
    kPayload = 0x28147a1b0b7c1a25ULL,
    kPayloadRef = 0x419d3d6bc4ba977eULL,
    kGoodbye = 0x2fec4fa642d5731dULL,
    kGoodbyeTailMarker = 0xef5eed5b753e1555ULL,
    kPayloadStartMarker = 0x834c68c2194a4ed2ULL,
    kPayloadTailMarker = 0x6c72b78b984c81b5ULL,
};

inline constexpr uint64_t kHeaderSize = 16;
inline constexpr uint64_t kMaxName = 4096;
inline constexpr uint64_t kMaxPath = 4096;
inline constexpr uint64_t kMaxXattr = 255 + 65536;
inline constexpr uint64_t kNoMask = UINT64_MAX;

// Largest body a type may have (exact sizes are checked where the decoder reads them).
uint64_t maxBodySize(uint64_t type);
const char *typeName(uint64_t type);
uint64_t nameHash(QByteArrayView name);

inline uint64_t le64(const char *p)
{
    uint64_t v;
    __builtin_memcpy(&v, p, 8);
    return v;
}
inline uint32_t le32(const char *p)
{
    uint32_t v;
    __builtin_memcpy(&v, p, 4);
    return v;
}

} // namespace asc::pxar
