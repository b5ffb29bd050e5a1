// SPDX-License-Identifier: MIT
#pragma once
// Process-wide settings both executables and the tests need before touching archives.

namespace asc {

// libarchive converts names with the locale's charset: make it UTF-8 when the environment is
// plain "C"/POSIX, so Joliet, zip and 7z names survive.
void useUtf8Locale();

} // namespace asc
