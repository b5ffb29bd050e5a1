// SPDX-License-Identifier: MIT
#pragma once
// Names that are not UTF-8, decoded as users expect: from the charset the user chose (View > Name
// Encoding, --charset), else, in a zip without the UTF-8 flag, from CP437 (what unzip, 7-Zip and
// Windows use). A name that is valid UTF-8 is kept (a zip written on Linux without the flag); a
// name the chosen charset cannot decode keeps its bytes (shown escaped, addressed by them) instead
// of vanishing, as libarchive's hdrcharset made it. Thread safe.

#include <QByteArray>

namespace asc {

// `charset` empty: the format's default (CP437 for zip, the stored bytes otherwise).
QByteArray decodeLegacyName(const QByteArray &stored, const QByteArray &charset, bool zip);

} // namespace asc
