// SPDX-License-Identifier: MIT
// The vmdk reader over arbitrary bytes: open, info, map, and read the first 4 MiB in odd pieces.

#include "formats/vmimages/vm_images.h"
#include "image_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return asc::fuzz::fuzzImageReader(data, size, QStringLiteral("fuzz.vmdk"), asc::openVmdk);
}
