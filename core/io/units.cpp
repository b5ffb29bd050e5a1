// SPDX-License-Identifier: MIT
#include "io/units.h"

#include <iterator>

namespace asc {

std::optional<uint64_t> parseSize(const QString &text)
{
    QString t = text.trimmed().toUpper();
    if (t.endsWith(QLatin1String("IB")))
        t.chop(2);
    else if (t.endsWith(QLatin1Char('B')) && t.size() > 1 && !t.at(t.size() - 2).isDigit())
        t.chop(1);
    uint64_t multiplier = 1;
    if (t.endsWith(QLatin1Char('K')))
        multiplier = 1ULL << 10;
    else if (t.endsWith(QLatin1Char('M')))
        multiplier = 1ULL << 20;
    else if (t.endsWith(QLatin1Char('G')))
        multiplier = 1ULL << 30;
    else if (t.endsWith(QLatin1Char('T')))
        multiplier = 1ULL << 40;
    if (multiplier != 1)
        t.chop(1);
    bool ok = false;
    const uint64_t n = t.toULongLong(&ok);
    if (!ok || n > (UINT64_MAX / multiplier))
        return std::nullopt;
    return n * multiplier;
}

QString countText(uint64_t n, const QString &one, const QString &many)
{
    return QString(n == 1 ? one : many).replace(QStringLiteral("%n"), QString::number(n));
}

QString sizeLabel(uint64_t bytes)
{
    // The unit follows the size, one rule everywhere: 344,576,000 bytes is "328.6 MiB", never
    // "336500 KiB" beside another entry's "145.8 MiB". Whole multiples show no decimals.
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int unit = 0;
    uint64_t scale = 1;
    while (unit + 1 < int(std::size(units)) && bytes / scale >= 1024) {
        scale *= 1024;
        ++unit;
    }
    if (bytes % scale == 0)
        return QStringLiteral("%1 %2").arg(bytes / scale).arg(QLatin1String(units[unit]));
    return QStringLiteral("%1 %2").arg(double(bytes) / double(scale), 0, 'f', 1).arg(QLatin1String(units[unit]));
}

} // namespace asc
