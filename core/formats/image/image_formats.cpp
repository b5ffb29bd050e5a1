#include "image_formats.h"

#include "formats/partitions/partition_container.h"
#include "formats/pxar/pxar_container.h"
#include "formats/qcow2/qcow2_image.h"

namespace asc {

std::vector<Format> imageFormats()
{
    std::vector<Format> formats;
    Format qcow2;
    qcow2.name = QStringLiteral("qcow2");
    qcow2.description = QStringLiteral("QEMU copy-on-write disk images v2/v3: compressed (zlib, zstd), zero and extended-L2 clusters, backing chains, snapshots");
    qcow2.mimeTypes = {QStringLiteral("application/x-qemu-disk")};
    qcow2.probe = [](const ProbeInput &in) { return looksLikeQcow2(in.head) ? 95 : 0; };
    qcow2.openImage = [](SourcePtr source) -> Result<SourcePtr> {
        auto image = Qcow2Image::open(std::move(source));
        if (!image)
            return std::move(image).error();
        return SourcePtr(std::move(image).value());
    };
    formats.push_back(std::move(qcow2));

    Format pxarFormat;
    pxarFormat.name = QStringLiteral("pxar");
    pxarFormat.description = QStringLiteral("Proxmox file archives, v1 and v2 split (.mpxar + .ppxar beside it)");
    pxarFormat.mimeTypes = {QStringLiteral("application/x-proxmox-pxar")};
    pxarFormat.probe = [](const ProbeInput &in) { return looksLikePxar(in.head) ? 90 : 0; };
    pxarFormat.openContainer = [](SourcePtr source) { return PxarContainer::open(std::move(source)); };
    formats.push_back(std::move(pxarFormat));

    Format partitions;
    partitions.name = QStringLiteral("partitions");
    partitions.description = QStringLiteral("raw disks with an MBR (primary, extended, logical) or GPT partition table");
    partitions.variants = {
        {QStringLiteral("mbr"), QStringLiteral("MBR partition tables: primary, extended and logical partitions (p1, p2, ... p5)")},
        {QStringLiteral("gpt"), QStringLiteral("GUID partition tables, CRC-checked, backup header as fallback")},
    };
    partitions.mimeTypes = {QStringLiteral("application/x-raw-disk-image")};
    partitions.probe = [](const ProbeInput &in) { return probePartitionTable(in.head); };
    partitions.openContainer = [](SourcePtr source) { return PartitionContainer::open(std::move(source)); };
    formats.push_back(std::move(partitions));
    return formats;
}

} // namespace asc
