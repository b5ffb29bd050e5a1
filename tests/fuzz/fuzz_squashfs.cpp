// SPDX-License-Identifier: MIT
// Our squashfs reader over arbitrary bytes: open (at the start, or after an ELF runtime), walk every
// folder, read each file's first bytes (blocks, fragments, sparse blocks) and each symlink.

#include "formats/squashfs/squashfs_container.h"
#include "image_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const asc::SourcePtr image = asc::fuzz::inputSource(data, size, QStringLiteral("fuzz.squashfs"));
    auto container = asc::SquashfsContainer::open(image);
    if (!container)
        return 0;
    std::vector<char> buffer(70001);
    (void)(*container)->info();
    int entries = 0;
    (void)(*container)->list([&](const asc::Entry &entry) {
        if (entry.type == asc::EntryType::File)
            if (auto content = (*container)->open(entry))
                (void)(*content)->readAt(0, buffer);
        return ++entries < 10000;
    });
    return 0;
}
