// SPDX-License-Identifier: MIT
// Our lzop decoder (codecs/lzop_stream: liblzo2 blocks, checksums) on arbitrary bytes.

#include "codecs/lzop_stream.h"
#include "stream_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzzStream<asc::LzopStream>(data, size);
}
