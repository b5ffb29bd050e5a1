// SPDX-License-Identifier: MIT
#include "byte_source.h"
#include "io/trace.h"

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

Result<QByteArray> readHead(const ByteSource &source, size_t bytes)
{
    QByteArray head(qsizetype(std::min<uint64_t>(bytes, source.size())), Qt::Uninitialized);
    const TraceLayer layer("probe");
    auto got = source.readAt(0, std::span(head.data(), size_t(head.size())));
    if (!got)
        return std::move(got).error();
    head.truncate(qsizetype(*got));
    return head;
}

} // namespace asc
