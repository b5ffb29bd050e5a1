#pragma once
// Paths are raw bytes; text shows them as UTF-8 with each invalid byte as U+FFFD (CLI.md).

#include <QByteArray>
#include <QString>

namespace asc {

bool isValidUtf8(const QByteArray &bytes);
// Length of the valid UTF-8 sequence at p (0 if none): no overlongs, no surrogates, nothing
// above U+10FFFF. `left` bytes are readable from p.
int utf8SequenceLength(const unsigned char *p, qsizetype left);
// Valid UTF-8 sequences kept, every byte outside one replaced by U+FFFD.
QString pathText(const QByteArray &bytes);

} // namespace asc
