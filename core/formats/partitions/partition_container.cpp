// SPDX-License-Identifier: MIT
#include "partition_container.h"

#include "io/byte_text.h"

#include "filesystem_magic.h"
#include "io/slice_source.h"

#include <QJsonArray>

namespace asc {

Result<ContainerPtr> PartitionContainer::open(SourcePtr disk)
{
    auto table = readPartitionTable(*disk);
    if (!table)
        return std::move(table).error();
    std::shared_ptr<PartitionContainer> container(new PartitionContainer(disk, std::move(table).value()));
    uint64_t ordinal = 0;
    for (const Partition &p : container->table_.partitions) {
        Entry e;
        e.path = QByteArray("p") + QByteArray::number(p.number);
        e.type = EntryType::Partition;
        e.size = p.length;
        e.dataOffset = p.start;
        e.mode = 0444;
        e.ordinal = ordinal++;
        QString detail = p.typeName + QStringLiteral(" (") + p.type + QLatin1Char(')');
        if (!p.name.isEmpty())
            detail += QStringLiteral(" \"") + p.name + QLatin1Char('"');
        if (p.kind != QLatin1String("extended")) {
            SliceSource slice(disk, p.start, p.length, disk->name());
            const QString filesystem = detectFilesystem(slice);
            if (!filesystem.isEmpty())
                detail += QStringLiteral(", ") + filesystem;
            // Named, but not opened: no expand arrow that leads to an error.
            if (filesystemNotRead(filesystem)) {
                detail += QStringLiteral(" (not read by ArchiveScope yet)");
                e.opaque = true;
            }
        } else {
            detail += QStringLiteral(", extended");
            e.opaque = true; // its logical partitions are listed beside it (p5, p6, ...)
        }
        e.detail = detail.toUtf8();
        container->entries_.push_back(e);
    }
    return ContainerPtr(container);
}

Result<void> PartitionContainer::list(const EntrySink &sink)
{
    for (const Entry &e : entries_)
        if (!sink(e))
            break;
    return {};
}

Result<SourcePtr> PartitionContainer::open(const Entry &entry)
{
    if (entry.type != EntryType::Partition || entry.dataOffset == kUnknown)
        return Error::make(ErrorKind::Usage, disk_->name(), QStringLiteral("'%1' is not a partition").arg(bytesToText(entry.path)));
    auto slice = std::make_shared<SliceSource>(disk_, entry.dataOffset, entry.size, disk_->name() + QStringLiteral("!/") + bytesToText(entry.path));
    // An extended partition's bytes are the EBR chain already read for p5, p6, ...: probing them
    // as a disk of their own would list the logical partitions a second time, misnamed.
    slice->setOpaque(entry.opaque);
    return SourcePtr(slice);
}

QJsonObject PartitionContainer::info() const
{
    QJsonObject o = table_.toJson();
    QJsonArray parts = o.value(QStringLiteral("partitions")).toArray();
    for (qsizetype i = 0; i < parts.size() && i < qsizetype(entries_.size()); ++i) {
        QJsonObject p = parts[i].toObject();
        p[QStringLiteral("detail")] = QString::fromUtf8(entries_[size_t(i)].detail);
        parts[i] = p;
    }
    o[QStringLiteral("partitions")] = parts;
    o[QStringLiteral("disk_size")] = double(disk_->size());
    return o;
}

} // namespace asc
