// SPDX-License-Identifier: MIT
#pragma once
// A faster mbrtowc for the calls libarchive makes (see ascii_mbrtowc.cpp). Linked into every
// program that reads archives: the reader names it so the linker keeps it.

namespace asc {

// Whether the fast path is the one the process uses (false: another definition won).
bool asciiMbrtowcInUse();

} // namespace asc
