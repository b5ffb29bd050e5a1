// SPDX-License-Identifier: MIT
#include "extent.h"

#include <QJsonObject>

namespace asc {

void appendExtent(std::vector<DiskExtent> &extents, const DiskExtent &next)
{
    if (next.length == 0)
        return;
    if (!extents.empty()) {
        DiskExtent &last = extents.back();
        const bool sameKind = last.depth == next.depth && last.present == next.present && last.zero == next.zero &&
                              last.data == next.data && last.compressed == next.compressed &&
                              last.offset.has_value() == next.offset.has_value();
        const bool continues = !last.offset || *last.offset + last.length == *next.offset;
        if (sameKind && continues && last.start + last.length == next.start) {
            last.length += next.length;
            return;
        }
    }
    extents.push_back(next);
}

QJsonArray extentsToJson(const std::vector<DiskExtent> &extents)
{
    QJsonArray array;
    for (const DiskExtent &e : extents) {
        QJsonObject o;
        o[QStringLiteral("start")] = double(e.start);
        o[QStringLiteral("length")] = double(e.length);
        o[QStringLiteral("depth")] = e.depth;
        o[QStringLiteral("present")] = e.present;
        o[QStringLiteral("zero")] = e.zero;
        o[QStringLiteral("data")] = e.data;
        o[QStringLiteral("compressed")] = e.compressed;
        if (e.offset)
            o[QStringLiteral("offset")] = double(*e.offset);
        array.append(o);
    }
    return array;
}

} // namespace asc
