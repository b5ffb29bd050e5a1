// SPDX-License-Identifier: MIT
#include "lvm_container.h"

#include "lvm_label.h"

#include "formats/partitions/filesystem_magic.h"
#include "formats/partitions/partition_table.h"
#include "io/byte_text.h"
#include "io/slice_source.h"
#include "vfs/problems.h"

#include <QJsonArray>

namespace asc {

using namespace lvm;

namespace {

// The physical volumes a volume reads from, directly or through sub-volumes (raid images, pools).
void collectPvs(const VolumeGroup &vg, const LogicalVolume &lv, std::vector<int> &pvs, int depth = 0)
{
    if (depth > 8)
        return;
    for (const Segment &seg : lv.segments) {
        for (const Area &area : seg.areas) {
            if (area.pv >= 0)
                pvs.push_back(area.pv);
            else if (const LogicalVolume *sub = vg.volume(area.lv))
                collectPvs(vg, *sub, pvs, depth + 1);
        }
        for (const QByteArray &sub : {seg.pool, seg.poolData, seg.poolMetadata})
            if (!sub.isEmpty())
                if (const LogicalVolume *s = vg.volume(sub))
                    collectPvs(vg, *s, pvs, depth + 1);
    }
}

// A volume group grown over several partitions of one disk (a disk enlarged, a partition added and
// made a PV): the other PVs are partitions beside this one. Only the disk this PV lies on is looked
// at; PVs on other disks stay missing.
void findSiblingVolumes(const ByteSource &pv, VolumeGroupView &group)
{
    if (std::find(group.pvs.begin(), group.pvs.end(), nullptr) == group.pvs.end())
        return;
    const auto *slice = dynamic_cast<const SliceSource *>(&pv);
    if (!slice)
        return;
    auto table = readPartitionTable(*slice->parent());
    if (!table)
        return;
    for (const Partition &p : table->partitions) {
        if (p.kind == QLatin1String("extended") || p.start == slice->start())
            continue;
        auto sibling = std::make_shared<SliceSource>(slice->parent(), p.start, p.length, slice->parent()->name() + QStringLiteral("!/p%1").arg(p.number));
        auto head = readHead(*sibling, 2048);
        if (!head || !looksLikePhysicalVolume(std::span<const char>(head->constData(), size_t(head->size()))))
            continue;
        auto label = readPhysicalVolume(*sibling);
        if (!label)
            continue;
        for (size_t i = 0; i < group.vg.pvs.size(); ++i)
            if (!group.pvs[i] && group.vg.pvs[i].uuid == label->uuid)
                group.pvs[i] = sibling;
    }
}

} // namespace

int probeLvm(std::span<const char> head)
{
    return looksLikePhysicalVolume(head) ? 95 : 0;
}

LvmContainer::LvmContainer(SourcePtr pv, std::shared_ptr<const VolumeGroupView> group, QByteArray pvUuid)
    : pv_(std::move(pv)),
      group_(std::move(group)),
      pvUuid_(std::move(pvUuid))
{
}

Result<ContainerPtr> LvmContainer::open(SourcePtr pv)
{
    auto label = readPhysicalVolume(*pv);
    if (!label)
        return std::move(label).error();
    if (label->metadata.isEmpty())
        return Error::format(pv->name(), std::nullopt, QStringLiteral("LVM physical volume %1 holds no volume group metadata (not in a volume group, or its metadata is on another PV)").arg(QString::fromUtf8(dashedUuid(label->uuid))));
    const QString where = pv->name() + QStringLiteral(" (LVM metadata at %1)").arg(label->metadataOffset);
    auto text = parseText(label->metadata, where);
    if (!text)
        return std::move(text).error();
    auto vg = parseVolumeGroup(*text, where);
    if (!vg)
        return std::move(vg).error();
    auto group = std::make_shared<VolumeGroupView>();
    group->vg = std::move(vg).value();
    group->pvs.resize(group->vg.pvs.size());
    bool found = false;
    for (size_t i = 0; i < group->vg.pvs.size(); ++i) {
        if (group->vg.pvs[i].uuid == label->uuid) {
            group->pvs[i] = pv;
            found = true;
        }
    }
    if (!found)
        return Error::format(pv->name(), std::nullopt, QStringLiteral("LVM physical volume %1 is not among volume group %2's").arg(QString::fromUtf8(dashedUuid(label->uuid)), QString::fromUtf8(group->vg.name)));
    findSiblingVolumes(*pv, *group);
    std::shared_ptr<LvmContainer> container(new LvmContainer(pv, group, label->uuid));
    const VolumeGroup &g = group->vg;
    Entry folder;
    folder.path = g.name;
    folder.type = EntryType::Dir;
    folder.mode = 0555;
    folder.detail = "LVM volume group, " + QByteArray::number(qulonglong(g.pvs.size())) + (g.pvs.size() == 1 ? " physical volume" : " physical volumes");
    container->entries_.push_back(folder);
    uint64_t ordinal = 1;
    for (const LogicalVolume &lv : g.lvs) {
        if (!lv.visible)
            continue;
        Entry e;
        e.path = g.name + '/' + lv.name;
        e.type = EntryType::Partition;
        e.size = lv.extents() * g.extentSize;
        e.mode = 0444;
        e.ordinal = ordinal++;
        // "LVM logical volume (linear; 2 segments), XFS": what it holds last, as partitions have it
        // (the window titles an entry by the part after the last comma).
        QByteArray detail = "LVM logical volume (" + lv.kind();
        if (lv.segments.size() > 1)
            detail += "; " + QByteArray::number(qulonglong(lv.segments.size())) + " segments";
        detail += ')';
        std::vector<int> pvs;
        collectPvs(g, lv, pvs);
        for (int index : pvs) {
            if (!group->pvs[size_t(index)]) {
                e.problem = "needs physical volume " + dashedUuid(g.pvs[size_t(index)].uuid) + ", which is not in this image";
                e.opaque = true;
                break;
            }
        }
        if (lv.kind() == "thin-pool") {
            detail += " holding the thin volumes listed beside it";
            e.opaque = true;
        } else if (e.problem.isEmpty()) {
            auto source = lvm::openVolume(group, lv.name, pv->name() + QStringLiteral("!/") + bytesToText(e.path));
            if (!source) {
                e.problem = source.error().withoutFile().toUtf8();
                e.opaque = true;
            } else if (const QString fs = detectFilesystem(**source); !fs.isEmpty()) {
                detail += ", " + fs.toUtf8();
                if (filesystemNotRead(fs)) {
                    detail += " (not read by ArchiveScope yet)";
                    e.opaque = true;
                }
            } else if (auto head = readHead(**source, 8192); head && probePartitionTable(std::span<const char>(head->constData(), size_t(head->size()))) > 0) {
                detail += ", partitioned disk"; // a guest's disk (Proxmox keeps them as thin volumes)
            }
        }
        e.detail = detail;
        container->entries_.push_back(e);
    }
    return ContainerPtr(container);
}

Result<void> LvmContainer::list(const EntrySink &sink)
{
    for (const Entry &e : entries_) {
        // Listed all the same (what is whole is still read), and said: the listing is incomplete.
        if (!e.problem.isEmpty() && e.type == EntryType::Partition && !e.detail.contains("thin-pool"))
            reportProblem(Error::make(ErrorKind::NotFound, pv_->name() + QStringLiteral("!/") + bytesToText(e.path), QString::fromUtf8(e.problem)));
        if (!sink(e))
            break;
    }
    return {};
}

Result<Entry> LvmContainer::find(const QByteArray &path)
{
    for (const Entry &e : entries_)
        if (e.path == path)
            return e;
    return Error::make(ErrorKind::NotFound, pv_->name(), QStringLiteral("no entry '%1'").arg(bytesToText(path)));
}

Result<SourcePtr> LvmContainer::open(const Entry &entry)
{
    const QByteArray prefix = group_->vg.name + '/';
    if (entry.type != EntryType::Partition || !entry.path.startsWith(prefix))
        return Error::make(ErrorKind::Usage, pv_->name(), QStringLiteral("'%1' is not a logical volume").arg(bytesToText(entry.path)));
    auto source = lvm::openVolume(group_, QByteArrayView(entry.path).sliced(prefix.size()), pv_->name() + QStringLiteral("!/") + bytesToText(entry.path));
    if (!source)
        return std::move(source).error();
    if (!entry.opaque)
        return source;
    // Read, never probed: a thin pool, or a volume holding something we do not open (swap, LUKS).
    auto slice = std::make_shared<SliceSource>(*source, 0, (*source)->size(), (*source)->name());
    slice->setOpaque(true);
    return SourcePtr(slice);
}

QJsonObject LvmContainer::info() const
{
    QJsonObject o = group_->vg.toJson();
    o[QStringLiteral("format")] = QStringLiteral("lvm2");
    o[QStringLiteral("pv_uuid")] = QString::fromUtf8(dashedUuid(pvUuid_));
    QJsonArray missing;
    for (size_t i = 0; i < group_->pvs.size(); ++i)
        if (!group_->pvs[i])
            missing.append(QString::fromUtf8(dashedUuid(group_->vg.pvs[i].uuid)));
    if (!missing.isEmpty())
        o[QStringLiteral("missing_physical_volumes")] = missing;
    return o;
}

} // namespace asc
