// SPDX-License-Identifier: MIT
// Our ext2/3/4 reader over arbitrary bytes: open the volume, walk every folder, read each file's
// first bytes and each symlink's target (the listing and the reads are bounded by the reader).

#include "formats/ext/ext_container.h"
#include "image_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const asc::SourcePtr volume = asc::fuzz::inputSource(data, size, QStringLiteral("fuzz.ext4"));
    return asc::fuzz::exerciseContainer(asc::ExtContainer::open(volume));
}
