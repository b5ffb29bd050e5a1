// SPDX-License-Identifier: MIT
#include "memory_source.h"

#include <cstring>

namespace asc {

MemorySource::MemorySource(QByteArray bytes, QString name)
    : bytes_(std::move(bytes)),
      name_(std::move(name))
{
}

Result<size_t> MemorySource::readAt(uint64_t offset, std::span<char> buf) const
{
    if (offset >= size())
        return size_t(0);
    const size_t n = size_t(std::min<uint64_t>(buf.size(), size() - offset));
    std::memcpy(buf.data(), bytes_.constData() + offset, n);
    return n;
}

} // namespace asc
