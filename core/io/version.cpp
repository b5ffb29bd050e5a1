// SPDX-License-Identifier: MIT
#include "io/version.h"

#include "io/uring_reader.h"

#include <archive.h>
#include <libdeflate.h>
#include <zlib.h>
#include <zstd.h>

namespace asc {

QString programVersion()
{
    return QStringLiteral(ARCHIVESCOPE_VERSION);
}

QString libraryVersions()
{
    return QStringLiteral("Qt %1, libarchive %2, liburing %3, zstd %4, zlib %5, libdeflate %6")
        .arg(QString::fromLatin1(qVersion()))
        .arg(QString::fromLatin1(archive_version_string()).section(QLatin1Char(' '), 1, 1))
        .arg(UringReader::libraryVersion())
        .arg(QString::fromLatin1(ZSTD_versionString()))
        .arg(QString::fromLatin1(zlibVersion()))
        .arg(QStringLiteral(LIBDEFLATE_VERSION_STRING));
}

} // namespace asc
