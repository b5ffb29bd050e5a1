// SPDX-License-Identifier: MIT
// Our gzip decoder (codecs/gzip_stream) on arbitrary bytes.

#include "codecs/gzip_stream.h"
#include "stream_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzzStream<asc::GzipStream>(data, size);
}
