// The vdi reader over arbitrary bytes: open, info, map, and read the first 4 MiB in odd pieces.

#include "formats/vmimages/vm_images.h"
#include "io/memory_source.h"

#include <QByteArray>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    auto file = std::make_shared<asc::MemorySource>(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)), QStringLiteral("fuzz.vdi"));
    auto image = asc::openVdi(file);
    if (!image)
        return 0;
    (void)(*image)->info();
    (void)(*image)->map(0, std::min<uint64_t>((*image)->size(), 64ULL << 20));
    std::vector<char> buffer(70001);
    for (uint64_t at = 0; at < std::min<uint64_t>((*image)->size(), 4 << 20); at += buffer.size())
        if (!(*image)->readAt(at, buffer))
            break;
    return 0;
}
