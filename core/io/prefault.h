// SPDX-License-Identifier: MIT
#pragma once
// Memory about to be written in full (a decoded index's listing, its decompressed payload): its
// pages made in one call instead of one fault each. In a virtual machine a fault is a trap to
// the hypervisor's side too: 50,896 entries touch ~4,000 fresh pages, a third of a second `ls`.

#include <cstddef>

namespace asc {

// Best effort: a kernel before 5.14 (no MADV_POPULATE_WRITE) or memory of the heap already
// touched leaves the pages to be made as they are written, as without it.
void prefault(void *at, size_t length);

} // namespace asc
