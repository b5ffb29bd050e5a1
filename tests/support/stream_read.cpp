// SPDX-License-Identifier: MIT
#include "stream_read.h"

#include <vector>

namespace asc::test {

Result<QByteArray> readToEnd(ByteStream &stream)
{
    QByteArray out;
    std::vector<char> block(300000); // not a power of two
    for (;;) {
        auto got = stream.read(block);
        if (!got)
            return std::move(got).error();
        if (*got == 0)
            return out;
        out.append(block.data(), qsizetype(*got));
    }
}

} // namespace asc::test
