// SPDX-License-Identifier: MIT
#include "seven_zip_listing.h"

#include <QDateTime>

namespace asc {

namespace {

// "2026-12-07 04:17:53.5436709" (UTC), 100 ns digits optional.
void parseModified(const QByteArray &value, Entry &entry)
{
    const QByteArray seconds = value.left(19);
    const QDateTime when = QDateTime::fromString(QString::fromLatin1(seconds), QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    if (!when.isValid())
        return;
    QDateTime utc = when;
    utc.setTimeSpec(Qt::UTC);
    entry.mtime = utc.toSecsSinceEpoch();
    entry.hasMtime = true;
    if (value.size() > 20 && value[19] == '.') {
        QByteArray fraction = value.mid(20, 9);
        fraction.append(QByteArray(9 - fraction.size(), '0'));
        entry.mtimeNsec = fraction.toUInt();
    }
}

// "A -rw-r--r--", "D drwxr-xr-x", "A" (written on Windows), "RHA".
void parseAttributes(const QByteArray &value, Entry &entry)
{
    const qsizetype space = value.indexOf(' ');
    const QByteArray letters = space < 0 ? value : value.left(space);
    const QByteArray unix = space < 0 ? QByteArray() : value.mid(space + 1).trimmed();
    if (letters.contains('D'))
        entry.type = EntryType::Dir;
    if (unix.size() < 10)
        return;
    switch (unix[0]) {
    case 'd':
        entry.type = EntryType::Dir;
        break;
    case 'l':
        entry.type = EntryType::Symlink;
        break;
    default:
        break;
    }
    uint32_t mode = 0;
    for (int i = 0; i < 9; ++i)
        if (unix[1 + i] != '-')
            mode |= 1u << (8 - i);
    // Set-id and sticky bits as ls shows them (s/S, t/T in the execute places).
    if (unix[3] == 's' || unix[3] == 'S')
        mode = (mode | 04000) & ~(unix[3] == 'S' ? 0100u : 0u);
    if (unix[6] == 's' || unix[6] == 'S')
        mode = (mode | 02000) & ~(unix[6] == 'S' ? 010u : 0u);
    if (unix[9] == 't' || unix[9] == 'T')
        mode = (mode | 01000) & ~(unix[9] == 'T' ? 01u : 0u);
    entry.mode = mode;
}

} // namespace

Result<SevenZipListing> parseSevenZipListing(const QByteArray &text, const QString &what)
{
    SevenZipListing listing;
    const QList<QByteArray> lines = text.split('\n');
    qsizetype i = 0;
    // The archive's own lines: after "--" up to "----------".
    while (i < lines.size() && lines[i].trimmed() != "--")
        ++i;
    for (++i; i < lines.size() && lines[i].trimmed() != "----------"; ++i) {
        const qsizetype eq = lines[i].indexOf(" = ");
        if (eq > 0)
            listing.archive[QString::fromUtf8(lines[i].left(eq))] = QString::fromUtf8(lines[i].mid(eq + 3).trimmed());
    }
    if (i >= lines.size())
        return Error::make(ErrorKind::Format, what, QStringLiteral("7-Zip listed no items (its listing has no \"----------\" line)"));
    SevenZipItem item;
    bool open = false;
    auto finish = [&] {
        if (!open)
            return;
        item.entry.ordinal = uint64_t(listing.items.size());
        item.streamBytes = item.entry.type == EntryType::Dir ? 0 : item.entry.size;
        if (item.entry.type != EntryType::File)
            item.entry.size = 0;
        if (item.entry.path.contains("..") || item.entry.path.startsWith('/')) {
            for (const QByteArray &part : item.entry.path.split('/'))
                item.entry.unsafePath = item.entry.unsafePath || part == "..";
        }
        listing.anyEncrypted = listing.anyEncrypted || item.entry.encrypted;
        listing.items.push_back(std::move(item));
        item = SevenZipItem();
        open = false;
    };
    for (++i; i < lines.size(); ++i) {
        QByteArray line = lines[i];
        if (line.endsWith('\r'))
            line.chop(1);
        const qsizetype eq = line.indexOf(" = ");
        const QByteArray key = eq > 0 ? line.left(eq) : line.trimmed();
        const QByteArray value = eq > 0 ? line.mid(eq + 3) : QByteArray();
        if (key == "Path") {
            finish();
            open = true;
            QByteArray path = value;
            while (path.startsWith("./"))
                path.remove(0, 2);
            while (path.endsWith('/'))
                path.chop(1);
            item.entry.path = path;
        } else if (!open) {
            continue;
        } else if (key == "Size") {
            item.entry.size = value.toULongLong();
        } else if (key == "Packed Size") {
            bool ok = false;
            const uint64_t packed = value.toULongLong(&ok);
            item.entry.compressedSize = ok ? packed : kUnknown;
        } else if (key == "Modified") {
            parseModified(value, item.entry);
        } else if (key == "Attributes") {
            parseAttributes(value, item.entry);
        } else if (key == "Folder" && value == "+") {
            item.entry.type = EntryType::Dir;
        } else if (key == "CRC" && !value.isEmpty()) {
            bool ok = false;
            const uint32_t crc = value.toUInt(&ok, 16);
            if (ok)
                item.crc = crc;
        } else if (key == "Encrypted") {
            item.entry.encrypted = value == "+";
        } else if (key == "Method") {
            item.method = QString::fromUtf8(value);
        }
    }
    finish();
    return listing;
}

} // namespace asc
