// SPDX-License-Identifier: MIT
#include "lvm_volume_group.h"

#include <QJsonArray>

namespace asc::lvm {

namespace {

constexpr uint64_t kSector = 512;
constexpr size_t kMaxVolumes = 100'000;
constexpr size_t kMaxSegments = 100'000;

QByteArray noDashes(QByteArray uuid)
{
    return uuid.replace('-', QByteArray());
}

QJsonArray textList(const std::vector<QByteArray> &items)
{
    QJsonArray out;
    for (const QByteArray &item : items)
        out.append(QString::fromUtf8(item));
    return out;
}

Error bad(const QString &where, const QString &message)
{
    return Error::format(where, std::nullopt, QStringLiteral("LVM metadata: %1").arg(message));
}

Result<Segment> parseSegment(const VolumeGroup &vg, const QByteArray &lv, const Section &s, const QString &where)
{
    Segment seg;
    const int64_t start = s.number("start_extent");
    const int64_t count = s.number("extent_count");
    if (start < 0 || count <= 0)
        return bad(where, QStringLiteral("volume %1 has a segment without start_extent/extent_count").arg(QString::fromUtf8(lv)));
    seg.startExtent = uint64_t(start);
    seg.extentCount = uint64_t(count);
    // Offsets are extents times the extent size: hostile counts must not wrap around.
    const uint64_t maxExtents = (uint64_t(1) << 62) / vg.extentSize;
    if (seg.startExtent > maxExtents || seg.extentCount > maxExtents - seg.startExtent)
        return bad(where, QStringLiteral("volume %1 has a segment of %2 extents at %3").arg(QString::fromUtf8(lv)).arg(count).arg(start));
    seg.type = s.string("type");
    const Value *list = nullptr;
    bool pairs = true; // ["name", extent, ...]
    if (seg.type == "striped") {
        list = s.value("stripes");
        seg.stripeSize = uint64_t(std::max<int64_t>(0, s.number("stripe_size", 0))) * kSector;
    } else if (seg.type == "mirror") {
        list = s.value("mirrors");
    } else if (seg.type == "raid1" || seg.type == "raid0" || seg.type == "raid0_meta") {
        list = s.value("raids");
        pairs = false; // ["x_rmeta_0", "x_rimage_0", ...] (raid0: images only)
        seg.stripeSize = uint64_t(std::max<int64_t>(0, s.number("stripe_size", 0))) * kSector;
    } else if (seg.type == "thin") {
        seg.pool = s.string("thin_pool");
        seg.deviceId = uint64_t(std::max<int64_t>(0, s.number("device_id", 0)));
        seg.transactionId = uint64_t(std::max<int64_t>(0, s.number("transaction_id", 0)));
    } else if (seg.type == "thin-pool") {
        seg.poolMetadata = s.string("metadata");
        seg.poolData = s.string("pool");
        seg.chunkSize = uint64_t(std::max<int64_t>(0, s.number("chunk_size", 0))) * kSector;
        seg.transactionId = uint64_t(std::max<int64_t>(0, s.number("transaction_id", 0)));
    } else if (seg.type == "snapshot") {
        seg.origin = s.string("origin");
        seg.cowStore = s.string("cow_store");
        seg.chunkSize = uint64_t(std::max<int64_t>(0, s.number("chunk_size", 0))) * kSector;
    }
    if (!list || !list->isList)
        return seg;
    const std::vector<Value> &items = list->list;
    if (pairs) {
        for (size_t i = 0; i + 1 < items.size(); i += 2) {
            Area area;
            const QByteArray name = items[i].string();
            area.extent = uint64_t(std::max<int64_t>(0, items[i + 1].number()));
            area.pv = vg.pvIndex(name);
            if (area.pv < 0)
                area.lv = name;
            // A stripe holds its share of the segment; a mirror leg all of it.
            const uint64_t stripes = seg.type == "striped" ? uint64_t(items.size() / 2) : 1;
            const uint64_t needed = (seg.extentCount + stripes - 1) / stripes;
            const uint64_t limit = area.pv >= 0 ? vg.pvs[size_t(area.pv)].peCount : maxExtents;
            if (area.extent > limit || needed > limit - area.extent)
                return bad(where, QStringLiteral("volume %1 maps extents %2-%3 of %4, which has %5").arg(QString::fromUtf8(lv)).arg(area.extent).arg(area.extent + needed - 1).arg(QString::fromUtf8(name)).arg(limit));
            seg.areas.push_back(area);
        }
    } else {
        for (const Value &item : items) {
            const QByteArray name = item.string();
            if (name.contains("_rmeta_"))
                continue;
            Area area;
            area.lv = name;
            area.extent = seg.type == "raid1" ? seg.startExtent : 0;
            seg.areas.push_back(area);
        }
        if (seg.type == "raid0" || seg.type == "raid0_meta") {
            // raid0 stripes over its images: each image holds extentCount / images extents.
            for (Area &area : seg.areas)
                area.extent = 0;
        }
    }
    if (seg.areas.empty())
        return bad(where, QStringLiteral("volume %1: a %2 segment names no areas").arg(QString::fromUtf8(lv), QString::fromUtf8(seg.type)));
    if ((seg.type == "mirror" || seg.type == "raid1") && seg.areas.size() > 1) {
        for (size_t i = 1; i < seg.areas.size(); ++i)
            seg.otherLegs.push_back(seg.areas[i].pv >= 0 ? vg.pvs[size_t(seg.areas[i].pv)].key : seg.areas[i].lv);
        seg.areas.resize(1);
    }
    if (seg.type == "striped" && seg.areas.size() > 1 && seg.stripeSize == 0)
        return bad(where, QStringLiteral("volume %1: striped over %2 areas with no stripe_size").arg(QString::fromUtf8(lv)).arg(seg.areas.size()));
    return seg;
}

} // namespace

uint64_t LogicalVolume::extents() const
{
    uint64_t end = 0;
    for (const Segment &s : segments)
        end = std::max(end, s.startExtent + s.extentCount);
    return end;
}

QByteArray LogicalVolume::kind() const
{
    if (segments.empty())
        return "empty";
    const Segment &s = segments.front();
    if (s.type == "striped")
        return s.areas.size() == 1 ? QByteArray("linear") : QByteArray("striped");
    return s.type;
}

const LogicalVolume *VolumeGroup::volume(QByteArrayView name) const
{
    for (const LogicalVolume &lv : lvs)
        if (lv.name == name)
            return &lv;
    return nullptr;
}

int VolumeGroup::pvIndex(QByteArrayView key) const
{
    for (size_t i = 0; i < pvs.size(); ++i)
        if (pvs[i].key == key)
            return int(i);
    return -1;
}

QJsonObject VolumeGroup::toJson() const
{
    QJsonObject o;
    o[QStringLiteral("vg_name")] = QString::fromUtf8(name);
    o[QStringLiteral("vg_uuid")] = QString::fromUtf8(uuid);
    o[QStringLiteral("seqno")] = double(seqno);
    o[QStringLiteral("extent_size")] = double(extentSize);
    QJsonArray pvList;
    for (const PhysicalVolume &pv : pvs) {
        QJsonObject p;
        p[QStringLiteral("name")] = QString::fromUtf8(pv.key);
        p[QStringLiteral("pv_uuid")] = QString::fromUtf8(pv.uuid);
        p[QStringLiteral("pe_start")] = double(pv.peStart);
        p[QStringLiteral("pe_count")] = double(pv.peCount);
        p[QStringLiteral("dev_size")] = double(pv.deviceSize);
        pvList.append(p);
    }
    o[QStringLiteral("physical_volumes")] = pvList;
    QJsonArray lvList;
    for (const LogicalVolume &lv : lvs) {
        QJsonObject l;
        l[QStringLiteral("lv_name")] = QString::fromUtf8(lv.name);
        l[QStringLiteral("lv_uuid")] = QString::fromUtf8(lv.uuid);
        l[QStringLiteral("lv_size")] = double(lv.extents() * extentSize);
        l[QStringLiteral("segtype")] = QString::fromUtf8(lv.kind());
        l[QStringLiteral("visible")] = lv.visible;
        l[QStringLiteral("status")] = textList(lv.status);
        if (!lv.tags.empty())
            l[QStringLiteral("tags")] = textList(lv.tags);
        QJsonArray segs;
        for (const Segment &s : lv.segments) {
            QJsonObject j;
            j[QStringLiteral("start_extent")] = double(s.startExtent);
            j[QStringLiteral("extent_count")] = double(s.extentCount);
            j[QStringLiteral("type")] = QString::fromUtf8(s.type);
            QJsonArray areas;
            for (const Area &a : s.areas)
                areas.append(QStringLiteral("%1:%2").arg(QString::fromUtf8(a.pv >= 0 ? pvs[size_t(a.pv)].key : a.lv)).arg(a.extent));
            if (!areas.isEmpty())
                j[QStringLiteral("areas")] = areas;
            if (!s.otherLegs.empty())
                j[QStringLiteral("other_legs")] = textList(s.otherLegs);
            if (s.stripeSize)
                j[QStringLiteral("stripe_size")] = double(s.stripeSize);
            if (!s.pool.isEmpty()) {
                j[QStringLiteral("thin_pool")] = QString::fromUtf8(s.pool);
                j[QStringLiteral("device_id")] = double(s.deviceId);
            }
            if (!s.poolData.isEmpty()) {
                j[QStringLiteral("metadata")] = QString::fromUtf8(s.poolMetadata);
                j[QStringLiteral("pool")] = QString::fromUtf8(s.poolData);
                j[QStringLiteral("chunk_size")] = double(s.chunkSize);
            }
            if (!s.origin.isEmpty()) {
                j[QStringLiteral("origin")] = QString::fromUtf8(s.origin);
                j[QStringLiteral("cow_store")] = QString::fromUtf8(s.cowStore);
            }
            segs.append(j);
        }
        l[QStringLiteral("segments")] = segs;
        lvList.append(l);
    }
    o[QStringLiteral("logical_volumes")] = lvList;
    return o;
}

Result<VolumeGroup> parseVolumeGroup(const Section &text, const QString &where)
{
    // The text holds one section (the VG) beside a few top-level values.
    const Section *vgSection = nullptr;
    VolumeGroup vg;
    for (const auto &[name, section] : text.sections) {
        if (section->section("physical_volumes")) {
            vg.name = name;
            vgSection = section.get();
            break;
        }
    }
    if (!vgSection)
        return bad(where, QStringLiteral("no volume group in the metadata text"));
    vg.uuid = vgSection->string("id");
    vg.seqno = vgSection->number("seqno", 0);
    const int64_t extent = vgSection->number("extent_size");
    if (extent <= 0 || extent > (int64_t(1) << 40))
        return bad(where, QStringLiteral("volume group %1 has extent_size %2").arg(QString::fromUtf8(vg.name)).arg(extent));
    vg.extentSize = uint64_t(extent) * kSector;
    for (const auto &[key, pv] : vgSection->section("physical_volumes")->sections) {
        PhysicalVolume p;
        p.key = key;
        p.uuid = noDashes(pv->string("id"));
        const int64_t peStart = pv->number("pe_start", 0);
        const int64_t peCount = pv->number("pe_count", 0);
        const int64_t devSize = pv->number("dev_size", 0);
        constexpr int64_t kMaxSectors = int64_t(1) << 53;
        if (peStart < 0 || peStart > kMaxSectors || devSize < 0 || devSize > kMaxSectors || peCount < 0 || uint64_t(peCount) > (uint64_t(1) << 62) / vg.extentSize)
            return bad(where, QStringLiteral("physical volume %1 has pe_start %2, pe_count %3, dev_size %4").arg(QString::fromUtf8(key)).arg(peStart).arg(peCount).arg(devSize));
        p.peStart = uint64_t(peStart) * kSector;
        p.peCount = uint64_t(peCount);
        p.deviceSize = uint64_t(devSize) * kSector;
        vg.pvs.push_back(p);
    }
    if (const Section *lvs = vgSection->section("logical_volumes")) {
        if (lvs->sections.size() > kMaxVolumes)
            return bad(where, QStringLiteral("%1 logical volumes").arg(lvs->sections.size()));
        for (const auto &[name, lvSection] : lvs->sections) {
            LogicalVolume lv;
            lv.name = name;
            lv.uuid = lvSection->string("id");
            lv.status = lvSection->strings("status");
            lv.tags = lvSection->strings("tags");
            lv.visible = std::find(lv.status.begin(), lv.status.end(), QByteArray("VISIBLE")) != lv.status.end();
            for (const auto &[segName, seg] : lvSection->sections) {
                if (!segName.startsWith("segment"))
                    continue;
                if (lv.segments.size() >= kMaxSegments)
                    return bad(where, QStringLiteral("volume %1 has too many segments").arg(QString::fromUtf8(name)));
                auto parsed = parseSegment(vg, name, *seg, where);
                if (!parsed)
                    return std::move(parsed).error();
                lv.segments.push_back(std::move(parsed).value());
            }
            std::sort(lv.segments.begin(), lv.segments.end(), [](const Segment &a, const Segment &b) { return a.startExtent < b.startExtent; });
            vg.lvs.push_back(std::move(lv));
        }
    }
    return vg;
}

} // namespace asc::lvm
