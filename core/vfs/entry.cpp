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

} // namespace asc
