// SPDX-License-Identifier: MIT
#include "split_set.h"

#include "io/concat_source.h"
#include "io/file_source.h"
#include "io/little_endian.h"

#include <QHash>
#include <QRegularExpression>
#include <cstring>

namespace asc {

namespace {

constexpr int kMaxParts = 100'000;

QString numbered(const QString &base, int n, qsizetype width)
{
    return base + QStringLiteral("%1").arg(n, int(width), 10, QLatin1Char('0'));
}

Error missing(const QString &asked, const QString &part)
{
    return Error::make(ErrorKind::NotFound, asked, QStringLiteral("part %1 of this split set is missing").arg(part));
}

// Parts named base + number (+ suffix) from `first` on, while they exist; a gap (a part missing
// with a later one there) is an error naming it.
Result<QStringList> run(const QString &asked, const QString &base, const QString &suffix, int first, qsizetype width, const PartExists &exists)
{
    QStringList parts;
    for (int n = first; n < first + kMaxParts; ++n) {
        const QString name = numbered(base, n, width) + suffix;
        if (exists(name)) {
            parts << name;
            continue;
        }
        if (exists(numbered(base, n + 1, width) + suffix))
            return missing(asked, name);
        break;
    }
    return parts;
}

} // namespace

Result<std::optional<SplitSet>> splitSetOf(const QString &path, const PartExists &exists)
{
    static const QRegularExpression plain(QStringLiteral("^(.*\\.)(\\d{3,})$"));
    static const QRegularExpression rarPart(QStringLiteral("^(.*\\.part)(\\d+)\\.rar$"), QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression rarOld(QStringLiteral("^(.*)\\.(rar|r\\d{2})$"), QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression zip(QStringLiteral("^(.*)\\.(zip|z\\d{2,})$"), QRegularExpression::CaseInsensitiveOption);
    SplitSet set;
    if (const auto m = rarPart.match(path); m.hasMatch()) {
        const qsizetype width = m.captured(2).size();
        set.kind = QStringLiteral("rar");
        const QString first = numbered(m.captured(1), 1, width) + QStringLiteral(".rar");
        if (!exists(first))
            return missing(path, first);
        auto parts = run(path, m.captured(1), QStringLiteral(".rar"), 1, width, exists);
        if (!parts)
            return std::move(parts).error();
        set.parts = std::move(parts).value();
    } else if (const auto m = plain.match(path); m.hasMatch()) {
        // 7-Zip counts from .001, split -d from .000.
        const qsizetype width = m.captured(2).size();
        set.kind = QStringLiteral("numbered");
        const int first = exists(numbered(m.captured(1), 0, width)) ? 0 : 1;
        if (!exists(numbered(m.captured(1), first, width)))
            return missing(path, numbered(m.captured(1), 1, width));
        auto parts = run(path, m.captured(1), QString(), first, width, exists);
        if (!parts)
            return std::move(parts).error();
        set.parts = std::move(parts).value();
    } else if (const auto m = zip.match(path); m.hasMatch()) {
        const QString base = m.captured(1);
        const QString last = base + (m.captured(2).front().isUpper() ? QStringLiteral(".ZIP") : QStringLiteral(".zip"));
        const QString z = m.captured(2).front().isUpper() ? QStringLiteral(".Z") : QStringLiteral(".z");
        if (!exists(base + z + QStringLiteral("01")))
            return std::optional<SplitSet>(); // a plain zip
        if (!exists(last))
            return missing(path, last);
        set.kind = QStringLiteral("zip");
        auto parts = run(path, base + z, QString(), 1, 2, exists);
        if (!parts)
            return std::move(parts).error();
        set.parts = std::move(parts).value();
        set.parts << last;
    } else if (const auto m = rarOld.match(path); m.hasMatch()) {
        // The old scheme: NAME.rar first, then NAME.r00, NAME.r01, ...
        const QString base = m.captured(1);
        const bool upper = m.captured(2).front().isUpper();
        const QString first = base + (upper ? QStringLiteral(".RAR") : QStringLiteral(".rar"));
        const QString r = base + (upper ? QStringLiteral(".R") : QStringLiteral(".r"));
        if (!exists(r + QStringLiteral("00")))
            return std::optional<SplitSet>();
        if (!exists(first))
            return missing(path, first);
        set.kind = QStringLiteral("rar");
        auto parts = run(path, r, QString(), 0, 2, exists);
        if (!parts)
            return std::move(parts).error();
        set.parts << first;
        set.parts += std::move(parts).value();
    } else {
        return std::optional<SplitSet>();
    }
    if (set.parts.size() < 2)
        return std::optional<SplitSet>();
    return std::optional<SplitSet>(std::move(set));
}

Result<std::optional<SourcePtr>> openSplitSet(const QString &path)
{
    // Opening is how a sandboxed worker learns whether a part exists: the opened parts are kept.
    QHash<QString, SourcePtr> opened;
    auto set = splitSetOf(path, [&](const QString &name) {
        if (opened.contains(name))
            return true;
        auto file = FileSource::open(name);
        if (!file)
            return false;
        opened.insert(name, std::move(file).value());
        return true;
    });
    if (!set)
        return std::move(set).error();
    if (!*set)
        return std::optional<SourcePtr>();
    std::vector<SourcePtr> parts;
    for (const QString &name : (*set)->parts)
        parts.push_back(opened.value(name));
    if ((*set)->kind == QLatin1String("zip")) {
        // The last part's end-of-central-directory record says which disk it is: every one before it
        // must be there.
        const SourcePtr &last = parts.back();
        const uint64_t tail = std::min<uint64_t>(last->size(), 65557);
        QByteArray bytes(qsizetype(tail), Qt::Uninitialized);
        if (auto read = last->readExact(last->size() - tail, std::span(bytes.data(), size_t(bytes.size()))); !read)
            return std::move(read).error();
        const qsizetype eocd = bytes.lastIndexOf(QByteArray("PK\x05\x06", 4));
        if (eocd >= 0 && eocd + 8 <= bytes.size()) {
            const int disks = le16(bytes.constData() + eocd + 4) + 1;
            if (size_t(disks) > parts.size()) {
                const QString base = (*set)->parts.back().chopped(4);
                return missing(path, base + QStringLiteral(".z%1").arg(parts.size(), 2, 10, QLatin1Char('0')));
            }
        }
    }
    return std::optional<SourcePtr>(std::make_shared<ConcatSource>(std::move(parts), path));
}

} // namespace asc
