// SPDX-License-Identifier: MIT
#include "io/units.h"

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
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    uint64_t value = bytes;
    while (unit < 4 && value >= 1024 && value % 1024 == 0) {
        value /= 1024;
        ++unit;
    }
    if (unit == 0 && bytes >= 1024) {
        double v = double(bytes);
        while (unit < 4 && v >= 1024) {
            v /= 1024;
            ++unit;
        }
        return QStringLiteral("%1 %2").arg(v, 0, 'f', 1).arg(QLatin1String(units[unit]));
    }
    return QStringLiteral("%1 %2").arg(value).arg(QLatin1String(units[unit]));
}

} // namespace asc
