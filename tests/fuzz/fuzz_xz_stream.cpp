// SPDX-License-Identifier: MIT
// Our xz decoder (codecs/xz_stream) on arbitrary bytes.

#include "codecs/xz_stream.h"
#include "stream_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzzStream<asc::XzStream>(data, size);
}
