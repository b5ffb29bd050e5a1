// SPDX-License-Identifier: MIT
#pragma once
// Fuzz builds (the `fuzz` preset) pass every metadata checksum, as OSS-Fuzz projects do: a fuzzer
// cannot forge CRCs, so without this it never gets past a superblock to the structures behind it.

namespace asc {

#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
inline constexpr bool kChecksumsAlwaysPass = true;
#else
inline constexpr bool kChecksumsAlwaysPass = false;
#endif

} // namespace asc
