// SPDX-License-Identifier: MIT
#include "byte_source.h"

namespace asc {

Result<void> ByteSource::readExact(uint64_t offset, std::span<char> buf) const
{
    auto got = readAt(offset, buf);
    if (!got)
        return std::move(got).error();
    if (*got != buf.size())
        return Error::format(name(), offset,
                             QStringLiteral("unexpected end of data: wanted %1 bytes, %2 available")
                                 .arg(buf.size())
                                 .arg(*got));
    return {};
}

} // namespace asc
