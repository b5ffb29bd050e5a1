// SPDX-License-Identifier: MIT
// qcow2 header + tables parsing and reads, partition tables, over arbitrary bytes: open the image,
// map it, read it in odd-sized pieces (bounded to 4 MiB of virtual disk), open its partitions.

#include "formats/partitions/partition_container.h"
#include "formats/qcow2/qcow2_image.h"
#include "image_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const asc::SourcePtr file = asc::fuzz::inputSource(data, size, QStringLiteral("fuzz.qcow2"));
    std::vector<char> buffer(70001);
    asc::SourcePtr disk = file;
    if (auto image = asc::Qcow2Image::open(file)) {
        asc::fuzz::exerciseImage(**image, buffer);
        disk = *image;
    }
    if (auto partitions = asc::PartitionContainer::open(disk)) {
        (void)(*partitions)->info();
        (void)(*partitions)->list([&](const asc::Entry &entry) {
            if (auto content = (*partitions)->open(entry))
                (void)(*content)->readAt(0, buffer);
            return true;
        });
    }
    return 0;
}
