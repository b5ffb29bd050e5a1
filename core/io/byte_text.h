// SPDX-License-Identifier: MIT
#pragma once
// Bytes carried through QString without loss. File names and SPECs are bytes (CLI.md): valid
// UTF-8 decodes as usual and every byte outside a valid sequence becomes U+DC80..U+DCFF (the
// "surrogateescape" scheme of PEP 383), which no valid UTF-8 text can contain, so the original
// bytes come back exactly. Use these wherever a path crosses QString (argv, SPECs, file opens).

#include <QByteArray>
#include <QString>

namespace asc {

// Length of the valid UTF-8 sequence at p (0 if none): no overlongs, no surrogates, nothing
// above U+10FFFF. `left` bytes are readable from p.
int utf8SequenceLength(const unsigned char *p, qsizetype left);
bool isValidUtf8(const QByteArray &bytes);

// Lossless: bytes -> text (escaped bytes as lone surrogates) -> the same bytes.
QString bytesToText(const QByteArray &bytes);
QByteArray textToBytes(const QString &text);
// A path for open(2) and friends: textToBytes of a path string.
inline QByteArray nativePath(const QString &path)
{
    return textToBytes(path);
}

// One line of terminal text: valid UTF-8 printable as is; bytes outside it and control
// characters as \xNN; a backslash as \\ (CLI.md, plain `ls`).
QByteArray escapeForTerminal(const QByteArray &bytes);
// The same for text that may carry escaped bytes (error messages naming a SPEC).
inline QByteArray escapeForTerminal(const QString &text)
{
    return escapeForTerminal(textToBytes(text));
}

} // namespace asc
