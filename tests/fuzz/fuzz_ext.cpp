// SPDX-License-Identifier: MIT
// Our ext2/3/4 reader over arbitrary bytes: open the volume, walk every folder, read each file's
// first bytes and each symlink's target (the listing and the reads are bounded by the reader).

#include "formats/ext/ext_container.h"
#include "image_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const asc::SourcePtr volume = asc::fuzz::inputSource(data, size, QStringLiteral("fuzz.ext4"));
    auto container = asc::ExtContainer::open(volume);
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
