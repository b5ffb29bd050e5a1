// SPDX-License-Identifier: MIT
// Our bzip2 decoder (io/filters/bzip2_stream) on arbitrary bytes.

#include "io/filters/bzip2_stream.h"
#include "stream_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzzStream<asc::Bzip2Stream>(data, size);
}
