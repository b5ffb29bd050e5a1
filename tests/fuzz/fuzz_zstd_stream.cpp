// SPDX-License-Identifier: MIT
// Our zstd decoder (codecs/zstd_stream) on arbitrary bytes.

#include "codecs/zstd_stream.h"
#include "stream_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzzStream<asc::ZstdStream>(data, size);
}
