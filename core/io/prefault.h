// SPDX-License-Identifier: MIT
#pragma once
// Memory about to be written in full (a decoded index's listing, its decompressed payload): its
// pages made in one call instead of one fault each, which costs more in a virtual machine. With
// it a second `ls` of real.tar.gz makes 3,304 faults instead of 7,630 (bench/README.md).

#include <cstddef>

namespace asc {

// Best effort: a kernel before 5.14 (no MADV_POPULATE_WRITE) or memory of the heap already
// touched leaves the pages to be made as they are written, as without it.
void prefault(void *at, size_t length);

} // namespace asc
