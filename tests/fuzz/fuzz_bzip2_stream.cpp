// SPDX-License-Identifier: MIT
// Our bzip2 decoder (codecs/bzip2_stream) on arbitrary bytes. Its decoding threads are part
// of what is fuzzed (blocks decoded out of order, handed out in order), so each input starts its
// own; profiled, starting and ending them is about 5% of a run (libbz2's inverse BWT of up to 900k
// symbols per block is most of it), so a pool kept across inputs would not make it faster.

#include "codecs/bzip2_stream.h"
#include "stream_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzzStream<asc::Bzip2Stream>(data, size);
}
