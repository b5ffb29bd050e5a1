// SPDX-License-Identifier: MIT
#include "pxar_format.h"

namespace asc::pxar {

uint64_t maxBodySize(uint64_t type)
{
    switch (type) {
    case kFormatVersion: return 8;
    case kEntry: return 40;
    case kEntryV1: return 32;
    case kFilename: return kMaxName + 1;
    case kSymlink: return kMaxPath + 1;
    case kHardlink: return 8 + kMaxPath + 1;
    case kDevice: return 16;
    case kXattr: return kMaxXattr;
    case kAclUser:
    case kAclGroup:
    case kAclDefaultUser:
    case kAclDefaultGroup: return 16;
    case kAclGroupObj: return 8;
    case kAclDefault: return 32;
    case kFcaps: return kMaxXattr;
    case kQuotaProjid: return 8;
    case kPayloadRef: return 16;
    case kPayloadStartMarker: return 0;
    case kPayloadTailMarker: return 16;
    case kPrelude:
    case kPayload:
    case kGoodbye: return UINT64_MAX;
    default: return 0;
    }
}

const char *typeName(uint64_t type)
{
    switch (type) {
    case kFormatVersion: return "FORMAT_VERSION";
    case kPrelude: return "PRELUDE";
    case kEntry: return "ENTRY";
    case kEntryV1: return "ENTRY_V1";
    case kFilename: return "FILENAME";
    case kSymlink: return "SYMLINK";
    case kHardlink: return "HARDLINK";
    case kDevice: return "DEVICE";
    case kXattr: return "XATTR";
    case kAclUser: return "ACL_USER";
    case kAclGroup: return "ACL_GROUP";
    case kAclGroupObj: return "ACL_GROUP_OBJ";
    case kAclDefault: return "ACL_DEFAULT";
    case kAclDefaultUser: return "ACL_DEFAULT_USER";
    case kAclDefaultGroup: return "ACL_DEFAULT_GROUP";
    case kFcaps: return "FCAPS";
    case kQuotaProjid: return "QUOTA_PROJID";
    case kPayload: return "PAYLOAD";
    case kPayloadRef: return "PAYLOAD_REF";
    case kGoodbye: return "GOODBYE";
    case kPayloadStartMarker: return "PAYLOAD_START_MARKER";
    case kPayloadTailMarker: return "PAYLOAD_TAIL_MARKER";
    default: return "unknown item";
    }
}

static inline uint64_t rotl(uint64_t x, int b)
{
    return (x << b) | (x >> (64 - b));
}

uint64_t nameHash(QByteArrayView name)
{
    // SipHash-2-4, key k0/k1 from the spec (section 5).
    const uint64_t k0 = 0x83ac3f1cfbb450dbULL, k1 = 0xaa4f1b6879369fbdULL;
    uint64_t v0 = k0 ^ 0x736f6d6570736575ULL, v1 = k1 ^ 0x646f72616e646f6dULL;
    uint64_t v2 = k0 ^ 0x6c7967656e657261ULL, v3 = k1 ^ 0x7465646279746573ULL;
    auto round = [&] {
        v0 += v1;
        v1 = rotl(v1, 13);
        v1 ^= v0;
        v0 = rotl(v0, 32);
        v2 += v3;
        v3 = rotl(v3, 16);
        v3 ^= v2;
        v0 += v3;
        v3 = rotl(v3, 21);
        v3 ^= v0;
        v2 += v1;
        v1 = rotl(v1, 17);
        v1 ^= v2;
        v2 = rotl(v2, 32);
    };
    const auto *p = reinterpret_cast<const uint8_t *>(name.data());
    const size_t len = size_t(name.size());
    const size_t whole = len & ~size_t(7);
    for (size_t i = 0; i < whole; i += 8) {
        uint64_t m;
        __builtin_memcpy(&m, p + i, 8);
        v3 ^= m;
        round();
        round();
        v0 ^= m;
    }
    uint64_t last = uint64_t(len) << 56;
    for (size_t i = 0; i < (len & 7); ++i)
        last |= uint64_t(p[whole + i]) << (8 * i);
    v3 ^= last;
    round();
    round();
    v0 ^= last;
    v2 ^= 0xff;
    round();
    round();
    round();
    round();
    return v0 ^ v1 ^ v2 ^ v3;
}

} // namespace asc::pxar
