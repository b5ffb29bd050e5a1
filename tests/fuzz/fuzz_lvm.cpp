// SPDX-License-Identifier: MIT
// LVM2 over arbitrary bytes, two ways: the input as a physical volume (label, metadata area,
// volumes read), and the input as metadata text mapped onto itself (the text parser and the segment
// mapping get hostile numbers directly: labels and metadata areas are CRC-checked, so a fuzzer seldom
// gets through them).

#include "formats/lvm/lvm_container.h"
#include "image_fuzz_body.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const asc::SourcePtr input = asc::fuzz::inputSource(data, size, QStringLiteral("fuzz.lvm"));
    std::vector<char> buffer(70001);
    if (auto container = asc::LvmContainer::open(input)) {
        (void)(*container)->info();
        (void)(*container)->list([&](const asc::Entry &entry) {
            if (auto content = (*container)->open(entry))
                (void)(*content)->readAt(0, buffer);
            return true;
        });
    }
    const QByteArrayView text(reinterpret_cast<const char *>(data), qsizetype(size));
    auto parsed = asc::lvm::parseText(text, QStringLiteral("fuzz.lvm"));
    if (!parsed)
        return 0;
    auto vg = asc::lvm::parseVolumeGroup(*parsed, QStringLiteral("fuzz.lvm"));
    if (!vg)
        return 0;
    auto group = std::make_shared<asc::lvm::VolumeGroupView>();
    group->vg = std::move(vg).value();
    group->pvs.assign(group->vg.pvs.size(), input);
    for (const asc::lvm::LogicalVolume &lv : group->vg.lvs) {
        auto volume = asc::lvm::openVolume(group, lv.name, QStringLiteral("fuzz.lvm"));
        if (volume && (*volume)->size())
            for (uint64_t at : {uint64_t(0), (*volume)->size() / 2, (*volume)->size() - 1})
                (void)(*volume)->readAt(at, buffer);
    }
    (void)group->vg.toJson();
    return 0;
}
