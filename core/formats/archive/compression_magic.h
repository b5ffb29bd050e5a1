// SPDX-License-Identifier: MIT
#pragma once
// Whether a file starts like a compressed stream: ours (gzip, xz, zstd, bzip2, lz4, lzop) or one
// libarchive decodes (lzip, lzma, compress). Decides that a file that fails to decode is a
// damaged stream, not an unknown format.

#include <QByteArrayView>

namespace asc {

bool hasCompressionMagic(QByteArrayView head);

} // namespace asc
