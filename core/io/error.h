// SPDX-License-Identifier: MIT
#pragma once
// Errors are values: what went wrong, where (file, offset) and during which operation.

#include <QString>
#include <cstdint>
#include <optional>

namespace asc {

enum class ErrorKind {
    System, // a system call failed (errnum is set)
    Format, // the input is not what its format says
    Unsupported, // valid input using something we refuse (encryption, ...)
    Checksum, // an entry decoded, but not to what its checksum says: that entry only is bad
    NotFound, // a path inside a container does not exist
    Limit, // a configured safety limit was hit
    Cancelled, // the caller asked to stop
    Usage, // the caller passed something meaningless
    Damaged, // an entry's own structure (its extents, its block pointers) is damaged: that entry only is bad
    Password, // encrypted, and no password given opens it (none given, or all wrong): asking may help
    // (keep Password last: the worker's wire accepts kinds up to it)
};

struct Error {
    ErrorKind kind = ErrorKind::Format;
    QString file; // the file or SPEC being read
    std::optional<uint64_t> offset; // byte offset in `file` where the problem is
    QString operation; // e.g. "open", "read", "parse qcow2 header"
    int errnum = 0; // errno for ErrorKind::System
    QString message; // what is wrong, in words

    // "FILE: offset N: message" — the CLI prefixes its own name.
    QString toString() const;
    // Whether only the entry being read is bad (encrypted, damaged, failing its checksum): the
    // others of its container can still be read.
    bool onlyThisEntry() const { return kind == ErrorKind::Unsupported || kind == ErrorKind::Checksum || kind == ErrorKind::Damaged || kind == ErrorKind::Password; }
    // "offset N: message" without the file (for places that already show it).
    QString withoutFile() const;

    static Error system(QString file, QString operation, int errnum,
                        std::optional<uint64_t> offset = std::nullopt);
    static Error format(QString file, std::optional<uint64_t> offset, QString message);
    static Error make(ErrorKind kind, QString file, QString message,
                      std::optional<uint64_t> offset = std::nullopt);
    static Error cancelled();
};

} // namespace asc
