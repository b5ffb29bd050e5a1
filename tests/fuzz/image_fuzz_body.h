// SPDX-License-Identifier: MIT
#pragma once
// What every disk-image fuzz target does with an image that opened: info, map, and reads of the
// first 4 MiB in odd-sized pieces (so reads straddle blocks and clusters).

#include "formats/image/disk_image.h"
#include "vfs/container.h"
#include "io/memory_source.h"

#include <QByteArray>
#include <vector>

namespace asc::fuzz {

inline SourcePtr inputSource(const uint8_t *data, size_t size, const QString &name)
{
    return std::make_shared<MemorySource>(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)), name);
}

inline void exerciseImage(const DiskImage &image, std::vector<char> &buffer)
{
    (void)image.info();
    (void)image.map(0, std::min<uint64_t>(image.size(), 64ULL << 20));
    for (uint64_t at = 0; at < std::min<uint64_t>(image.size(), 4 << 20); at += buffer.size())
        if (!image.readAt(at, buffer))
            break;
}

// A whole target for an image reader `open(SourcePtr) -> Result<shared_ptr<DiskImage-like>>`.
template <typename Open>
int fuzzImageReader(const uint8_t *data, size_t size, const QString &name, Open open)
{
    auto image = open(inputSource(data, size, name));
    if (!image)
        return 0;
    std::vector<char> buffer(70001);
    exerciseImage(**image, buffer);
    return 0;
}

// What every filesystem fuzz target does with a volume that opened: info, then every entry listed
// (at most 10,000) and each file's first bytes read.
inline int exerciseContainer(Result<ContainerPtr> container)
{
    if (!container)
        return 0;
    std::vector<char> buffer(70001);
    (void)(*container)->info();
    int entries = 0;
    (void)(*container)->list([&](const Entry &entry) {
        if (entry.type == EntryType::File)
            if (auto content = (*container)->open(entry))
                (void)(*content)->readAt(0, buffer);
        return ++entries < 10000;
    });
    return 0;
}

} // namespace asc::fuzz
