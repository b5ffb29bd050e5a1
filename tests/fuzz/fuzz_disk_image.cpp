// qcow2 header + tables parsing and reads, partition tables, over arbitrary bytes: open the image,
// map it, read it in odd-sized pieces (bounded to 4 MiB of virtual disk), open its partitions.

#include "formats/partitions/partition_container.h"
#include "formats/qcow2/qcow2_image.h"
#include "io/memory_source.h"

#include <QByteArray>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    auto file = std::make_shared<asc::MemorySource>(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)),
                                                    QStringLiteral("fuzz.qcow2"));
    std::vector<char> buffer(70001);
    asc::SourcePtr disk = file;
    if (auto image = asc::Qcow2Image::open(file)) {
        (void)(*image)->info();
        (void)(*image)->map(0, std::min<uint64_t>((*image)->size(), 64ULL << 20));
        for (uint64_t at = 0; at < std::min<uint64_t>((*image)->size(), 4 << 20); at += buffer.size())
            if (!(*image)->readAt(at, buffer))
                break;
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
