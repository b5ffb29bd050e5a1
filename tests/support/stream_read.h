// SPDX-License-Identifier: MIT
#pragma once
// A decompression stream read to its end, as a parser would read it.

#include "codecs/byte_stream.h"

#include <QByteArray>

namespace asc::test {

// Everything `stream` gives, read in blocks of an odd size (reads end mid-block and mid-member),
// or its first error.
Result<QByteArray> readToEnd(ByteStream &stream);

} // namespace asc::test
