// SPDX-License-Identifier: MIT
// Our lzip decoding (codecs/xz_stream in its lzip mode: liblzma's lzip decoder behind our
// input and error handling) on arbitrary bytes.

#include "codecs/xz_stream.h"
#include "stream_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    asc::XzStream decoder(fuzzInput(data, size), QStringLiteral("fuzz-input"), 1, size_t(1) << 16, asc::XzStream::Container::Lzip);
    drainStream(decoder);
    return 0;
}
