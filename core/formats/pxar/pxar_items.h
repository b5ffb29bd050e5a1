// SPDX-License-Identifier: MIT
#pragma once
// Reading items and entries: the part of the pxar parser that the decoder (front to back) and the
// accessor (one entry at a known offset) share. Every size is checked before anything is read or
// allocated; errors name the file and the offset of the offending item.

#include "pxar_entry.h"
#include "pxar_format.h"
#include "sequential_input.h"

namespace asc::pxar {

struct Header {
    uint64_t type = 0;
    uint64_t fullSize = 0;
    uint64_t offset = 0; // where the header starts
    uint64_t bodySize() const { return fullSize - kHeaderSize; }
    uint64_t end() const { return offset + fullSize; }
};

// Reads and validates a header at the input's position; items must end within `limit`.
Result<Header> readHeader(SequentialInput &in, uint64_t limit);
// Reads a FILENAME body and validates the name (no '/', not '.' or '..', no inner NUL).
Result<QByteArray> readFilename(SequentialInput &in, const Header &h);

// What ended an entry's attributes: the item deciding its kind, or the end of its range.
struct EntryEnd {
    std::optional<Header> next; // FILENAME or GOODBYE that belongs to a directory or the parent
};

// Reads an ENTRY (or ENTRY_V1) body and the attributes after it, up to the item that decides
// the entry's kind: PAYLOAD (header read, content not), PAYLOAD_REF, SYMLINK, DEVICE (bodies
// read), or FILENAME/GOODBYE (header read, returned in `next`). `limit` bounds every item.
Result<EntryEnd> readEntry(SequentialInput &in, const Header &entryHeader, PxarEntry &entry, uint64_t limit);

Error formatError(const SequentialInput &in, uint64_t offset, const QString &what);

} // namespace asc::pxar
