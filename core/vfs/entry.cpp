// SPDX-License-Identifier: MIT
#include "entry.h"

namespace asc {

QString entryTypeName(EntryType type)
{
    switch (type) {
    case EntryType::File: return QStringLiteral("file");
    case EntryType::Dir: return QStringLiteral("dir");
    case EntryType::Symlink: return QStringLiteral("symlink");
    case EntryType::Hardlink: return QStringLiteral("hardlink");
    case EntryType::CharDev: return QStringLiteral("chardev");
    case EntryType::BlockDev: return QStringLiteral("blockdev");
    case EntryType::Fifo: return QStringLiteral("fifo");
    case EntryType::Socket: return QStringLiteral("socket");
    case EntryType::Partition: return QStringLiteral("partition");
    }
    return QStringLiteral("file");
}

QByteArray Entry::name() const
{
    const qsizetype slash = path.lastIndexOf('/');
    return slash < 0 ? path : path.mid(slash + 1);
}

QString permissionText(EntryType type, uint32_t mode)
{
    QString text(10, QLatin1Char('-'));
    switch (type) {
    case EntryType::Dir: text[0] = QLatin1Char('d'); break;
    case EntryType::Symlink: text[0] = QLatin1Char('l'); break;
    case EntryType::Hardlink: text[0] = QLatin1Char('h'); break;
    case EntryType::CharDev: text[0] = QLatin1Char('c'); break;
    case EntryType::BlockDev: text[0] = QLatin1Char('b'); break;
    case EntryType::Fifo: text[0] = QLatin1Char('p'); break;
    case EntryType::Socket: text[0] = QLatin1Char('s'); break;
    case EntryType::Partition: text[0] = QLatin1Char('P'); break;
    case EntryType::File: break;
    }
    static const char rwx[] = "rwxrwxrwx";
    for (int i = 0; i < 9; ++i)
        if (mode & (0400u >> i))
            text[i + 1] = QLatin1Char(rwx[i]);
    if (mode & 04000)
        text[3] = (mode & 0100) ? QLatin1Char('s') : QLatin1Char('S');
    if (mode & 02000)
        text[6] = (mode & 0010) ? QLatin1Char('s') : QLatin1Char('S');
    if (mode & 01000)
        text[9] = (mode & 0001) ? QLatin1Char('t') : QLatin1Char('T');
    return text;
}

} // namespace asc
