// SPDX-License-Identifier: MIT
#pragma once
// Whether a RAR5 file is encrypted, read from its own header. libarchive 3.6.2 skips the file
// encryption record (RAR5 "extra area" type 1) without a word: a stored encrypted member then
// reads as its ciphertext with no error, a wrong byte. This reads the blocks from where libarchive
// says the entry's header began (service blocks skipped) to the file block, and answers from its
// extra area. Pure reads of `source`, thread safe; bounded (a few blocks of at most 2 MiB each).

#include "io/byte_source.h"

namespace asc {

// The file block at or after `offset` (the signature and main, service blocks are stepped over)
// has an encryption record. nullopt: no file block found there, or its header is damaged
// (its CRC does not match) — libarchive has said what it thinks of such a header already.
std::optional<bool> rar5FileIsEncrypted(const ByteSource &source, uint64_t offset);

} // namespace asc
