// SPDX-License-Identifier: MIT
// Our lz4 decoder (codecs/lz4_stream) on arbitrary bytes.

#include "codecs/lz4_stream.h"
#include "stream_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzzStream<asc::Lz4Stream>(data, size);
}
