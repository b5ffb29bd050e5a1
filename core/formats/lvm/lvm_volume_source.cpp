// SPDX-License-Identifier: MIT
#include "lvm_volume_source.h"

#include "lvm_label.h"
#include "lvm_thin.h"

#include <algorithm>
#include <cstring>

namespace asc::lvm {

namespace {

constexpr int kMaxDepth = 8; // raid images of thin pools of ...: deeper is a loop

// One segment, resolved: where each area's bytes come from.
struct MappedSegment {
    uint64_t start = 0; // bytes into the volume
    uint64_t length = 0;
    uint64_t stripeSize = 0; // 0: one area
    bool zero = false;
    struct Target {
        SourcePtr source;
        uint64_t offset = 0; // where the area starts in `source`
    };
    std::vector<Target> targets;
};

class VolumeSource final : public ByteSource {
public:
    VolumeSource(std::vector<MappedSegment> segments, uint64_t size, QString name)
        : segments_(std::move(segments)),
          size_(size),
          name_(std::move(name))
    {
    }

    uint64_t size() const override { return size_; }
    QString name() const override { return name_; }

    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override
    {
        if (offset >= size_)
            return size_t(0);
        const size_t want = size_t(std::min<uint64_t>(buf.size(), size_ - offset));
        size_t done = 0;
        while (done < want) {
            const uint64_t at = offset + done;
            auto it = std::upper_bound(segments_.begin(), segments_.end(), at, [](uint64_t v, const MappedSegment &s) { return v < s.start; });
            if (it == segments_.begin())
                return gap(at);
            const MappedSegment &seg = *--it;
            if (at >= seg.start + seg.length)
                return gap(at);
            const uint64_t local = at - seg.start;
            size_t n = size_t(std::min<uint64_t>(want - done, seg.start + seg.length - at));
            if (seg.zero) {
                std::memset(buf.data() + done, 0, n);
                done += n;
                continue;
            }
            const MappedSegment::Target *target = &seg.targets.front();
            uint64_t physical = local;
            if (seg.stripeSize) {
                const uint64_t chunk = local / seg.stripeSize;
                const uint64_t within = local % seg.stripeSize;
                target = &seg.targets[size_t(chunk % seg.targets.size())];
                physical = (chunk / seg.targets.size()) * seg.stripeSize + within;
                n = size_t(std::min<uint64_t>(n, seg.stripeSize - within));
            }
            auto read = target->source->readExact(target->offset + physical, buf.subspan(done, n));
            if (!read)
                return std::move(read).error();
            done += n;
        }
        return want;
    }

    std::optional<FileExtent> fileExtent(uint64_t offset) const override
    {
        const MappedSegment *seg = find(offset);
        if (!seg || seg->zero || seg->stripeSize)
            return std::nullopt;
        const uint64_t local = offset - seg->start;
        auto extent = seg->targets.front().source->fileExtent(seg->targets.front().offset + local);
        if (extent)
            extent->length = std::min(extent->length, seg->length - local);
        return extent;
    }

    uint64_t zeroRun(uint64_t offset) const override
    {
        const MappedSegment *seg = find(offset);
        if (!seg)
            return 0;
        const uint64_t local = offset - seg->start;
        if (seg->zero)
            return seg->length - local;
        if (seg->stripeSize)
            return 0;
        return std::min(seg->targets.front().source->zeroRun(seg->targets.front().offset + local), seg->length - local);
    }

private:
    const MappedSegment *find(uint64_t at) const
    {
        auto it = std::upper_bound(segments_.begin(), segments_.end(), at, [](uint64_t v, const MappedSegment &s) { return v < s.start; });
        if (it == segments_.begin())
            return nullptr;
        --it;
        return at < it->start + it->length ? &*it : nullptr;
    }

    Error gap(uint64_t at) const
    {
        return Error::format(name_, at, QStringLiteral("no LVM segment maps this part of the volume"));
    }

    std::vector<MappedSegment> segments_;
    uint64_t size_;
    QString name_;
};

Error unsupported(const QString &name, const QString &what)
{
    return Error::make(ErrorKind::Unsupported, name, what);
}

} // namespace

Result<SourcePtr> openVolume(const std::shared_ptr<const VolumeGroupView> &group, QByteArrayView lvName, const QString &name, int depth)
{
    const VolumeGroup &vg = group->vg;
    if (depth > kMaxDepth)
        return Error::format(name, std::nullopt, QStringLiteral("LVM volumes refer to each other too deeply (a loop?)"));
    const LogicalVolume *lv = vg.volume(lvName);
    if (!lv)
        return Error::make(ErrorKind::NotFound, name, QStringLiteral("volume group %1 has no logical volume '%2'").arg(QString::fromUtf8(vg.name), QString::fromUtf8(lvName.toByteArray())));
    const QString lvText = QString::fromUtf8(vg.name + '/' + lv->name);
    if (lv->segments.size() == 1 && lv->segments.front().type == "thin")
        return openThinVolume(group, *lv, name, depth);
    // An old-style snapshot shows as its copy-on-write volume; a hidden volume's "snapshot" segment
    // joins the two. Its raw bytes are not the snapshot's content.
    for (const LogicalVolume &other : vg.lvs)
        for (const Segment &seg : other.segments)
            if (seg.type == "snapshot" && seg.cowStore == lv->name)
                return openSnapshot(group, *lv, seg, name, depth);
    std::vector<MappedSegment> mapped;
    for (const Segment &seg : lv->segments) {
        MappedSegment m;
        m.start = seg.startExtent * vg.extentSize;
        m.length = seg.extentCount * vg.extentSize;
        const bool striped = seg.type == "striped" || seg.type == "raid0" || seg.type == "raid0_meta";
        if (seg.type == "zero") {
            m.zero = true;
        } else if (striped || seg.type == "mirror" || seg.type == "raid1") {
            for (const Area &area : seg.areas) {
                MappedSegment::Target t;
                if (area.pv >= 0) {
                    const PhysicalVolume &pv = vg.pvs[size_t(area.pv)];
                    t.source = group->pvs[size_t(area.pv)];
                    if (!t.source)
                        return Error::make(ErrorKind::NotFound, name,
                                           QStringLiteral("%1 needs physical volume %2 (%3), which is not in this image").arg(lvText, QString::fromUtf8(dashedUuid(pv.uuid)), QString::fromUtf8(pv.key)));
                    t.offset = pv.peStart + area.extent * vg.extentSize;
                } else {
                    auto sub = openVolume(group, area.lv, name, depth + 1);
                    if (!sub)
                        return std::move(sub).error();
                    t.source = std::move(sub).value();
                    t.offset = area.extent * vg.extentSize;
                }
                m.targets.push_back(std::move(t));
            }
            if (m.targets.empty())
                return Error::format(name, std::nullopt, QStringLiteral("%1 has a %2 segment that names no areas").arg(lvText, QString::fromUtf8(seg.type)));
            if (m.targets.size() > 1) {
                m.stripeSize = seg.stripeSize;
                if (m.stripeSize == 0)
                    return Error::format(name, std::nullopt, QStringLiteral("%1 is striped with no stripe size").arg(lvText));
            }
        } else if (seg.type == "thin-pool") {
            return unsupported(name, QStringLiteral("%1 is a thin pool: its thin volumes are listed beside it").arg(lvText));
        } else if (seg.type == "snapshot") {
            return openSnapshot(group, *lv, seg, name, depth);
        } else {
            return unsupported(name, QStringLiteral("%1 has a '%2' segment, which ArchiveScope does not map yet").arg(lvText, QString::fromUtf8(seg.type)));
        }
        mapped.push_back(std::move(m));
    }
    return SourcePtr(std::make_shared<VolumeSource>(std::move(mapped), lv->extents() * vg.extentSize, name));
}

} // namespace asc::lvm
