// SPDX-License-Identifier: MIT
// Our lz4 decoder (io/filters/lz4_stream) on arbitrary bytes.

#include "io/filters/lz4_stream.h"
#include "stream_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzzStream<asc::Lz4Stream>(data, size);
}
