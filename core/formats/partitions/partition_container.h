// SPDX-License-Identifier: MIT
#pragma once
// A partitioned disk as a container: entries p1, p2, ... (table order, Linux numbering) whose
// content is a slice of the disk, probed again when opened (a filesystem, an ISO, an archive).

#include "partition_table.h"
#include "vfs/container.h"

namespace asc {

class PartitionContainer final : public Container {
public:
    static Result<ContainerPtr> open(SourcePtr disk);

    QString formatName() const override { return table_.label == QLatin1String("gpt") ? QStringLiteral("gpt") : QStringLiteral("mbr"); }
    Result<void> list(const EntrySink &sink) override;
    Result<SourcePtr> open(const Entry &entry) override;
    QJsonObject info() const override;
    const SourcePtr &source() const override { return disk_; }

private:
    PartitionContainer(SourcePtr disk, PartitionTable table)
        : disk_(std::move(disk)),
          table_(std::move(table)) {}
    SourcePtr disk_;
    PartitionTable table_;
    std::vector<Entry> entries_;
};

} // namespace asc
