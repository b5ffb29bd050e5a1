// SPDX-License-Identifier: MIT
#pragma once
// Whole reads and writes on a pipe or file descriptor, retried on EINTR and short counts: what
// our helpers and their parents exchange on stdin/stdout (the LUKS key opener).

#include <cstddef>

namespace asc {

// Writes all `n` bytes; false when the descriptor fails or closes first.
bool writeAll(int fd, const char *data, size_t n);
// Reads exactly `n` bytes; false at an error or the end before them.
bool readExactly(int fd, char *data, size_t n);

} // namespace asc
