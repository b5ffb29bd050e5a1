// SPDX-License-Identifier: MIT
#pragma once
// Versions of the program and the libraries it was built with, for --version and result files.

#include <QString>

namespace asc {

QString programVersion();
QString libraryVersions(); // "Qt 6.4.2, libarchive 3.6.2, liburing 2.3, zstd 1.5.4, zlib 1.2.13, libdeflate 1.14"

} // namespace asc
