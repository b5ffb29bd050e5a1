// SPDX-License-Identifier: MIT
// Our squashfs reader over arbitrary bytes: open (at the start, or after an ELF runtime), walk every
// folder, read each file's first bytes (blocks, fragments, sparse blocks) and each symlink.

#include "formats/squashfs/squashfs_container.h"
#include "image_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const asc::SourcePtr image = asc::fuzz::inputSource(data, size, QStringLiteral("fuzz.squashfs"));
    return asc::fuzz::exerciseContainer(asc::SquashfsContainer::open(image));
}
