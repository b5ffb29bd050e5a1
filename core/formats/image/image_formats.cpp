// SPDX-License-Identifier: MIT
#include "image_formats.h"

#include "formats/btrfs/btrfs_container.h"
#include "formats/ext/ext_container.h"
#include "formats/filesystem/tsk_container.h"
#include "formats/luks/luks_volume.h"
#include "formats/lvm/lvm_container.h"
#include "formats/partitions/partition_container.h"
#include "formats/pxar/pxar_container.h"
#include "formats/qcow2/qcow2_image.h"
#include "formats/squashfs/squashfs_container.h"
#include "formats/udf/udf_container.h"
#include "formats/vmimages/vm_images.h"
#include "formats/xfs/xfs_container.h"
#include "formats/vmimages/vmdk_descriptor.h"

namespace asc {

std::vector<Format> imageFormats()
{
    std::vector<Format> formats;
    Format qcow2;
    qcow2.name = QStringLiteral("qcow2");
    qcow2.description = QStringLiteral("QEMU copy-on-write disk images v2/v3: compressed (zlib, zstd), zero and extended-L2 clusters, backing chains, snapshots");
    qcow2.mimeTypes = {QStringLiteral("application/x-qemu-disk")};
    qcow2.suffixes = {QStringLiteral("qcow2"), QStringLiteral("qcow"), QStringLiteral("qcow2c")};
    qcow2.probe = [](const ProbeInput &in) { return looksLikeQcow2(in.head) ? 95 : 0; };
    qcow2.openImage = [](SourcePtr source) -> Result<SourcePtr> {
        auto image = Qcow2Image::open(std::move(source));
        if (!image)
            return std::move(image).error();
        return SourcePtr(std::move(image).value());
    };
    qcow2.beside = [](std::span<const char> head, const QString &) { return BesideFiles{looksLikeQcow2(head), {}}; }; // its backing file
    formats.push_back(std::move(qcow2));

    // The other VM disk formats: block maps read by us, transparent like qcow2.
    struct VmFormat {
        const char *name;
        const char *description;
        const char *mime;
        const char *suffix;
        std::function<int(const ProbeInput &)> probe;
        Result<std::shared_ptr<DiskImage>> (*open)(SourcePtr);
        bool (*readsFolder)(std::span<const char> head); // its extents lie beside it
    };
    const auto sparseVmdk = [](std::span<const char> head) { return probeVmdk(head) > 0; };
    const VmFormat vms[] = {
        {"vmdk", "VMware disks: monolithicSparse (hosted sparse extent) and streamOptimized (compressed grains)", "application/x-vmdk-disk", "vmdk",
         [](const ProbeInput &in) { return probeVmdk(in.head); }, openVmdk, sparseVmdk},
        {"vmdk-descriptor", "VMware descriptor files listing flat, sparse and zero extents beside them", "application/x-vmdk-disk", "vmdk",
         [](const ProbeInput &in) { return looksLikeVmdkDescriptor(in.head) ? 90 : 0; }, openVmdkDescriptor, looksLikeVmdkDescriptor},
        {"vdi", "VirtualBox disks, dynamic and fixed", "application/x-vdi-disk", "vdi", [](const ProbeInput &in) { return probeVdi(in.head); }, openVdi, nullptr},
        {"vhd", "Virtual PC / Hyper-V VHD, fixed and dynamic (differencing refused)", "application/x-vhd-disk", "vhd",
         [](const ProbeInput &in) { return probeVhd(*in.source, in.head); }, openVhd, nullptr},
        {"vhdx", "Hyper-V VHDX, dynamic and fixed (a dirty log or a parent disk is refused)", "application/x-vhdx-disk", "vhdx",
         [](const ProbeInput &in) { return probeVhdx(in.head); }, openVhdx, nullptr},
    };
    for (const VmFormat &vm : vms) {
        Format f;
        f.name = QString::fromLatin1(vm.name);
        f.description = QString::fromLatin1(vm.description);
        f.mimeTypes = {QString::fromLatin1(vm.mime)};
        f.suffixes = {QString::fromLatin1(vm.suffix)};
        f.probe = vm.probe;
        auto open = vm.open;
        f.openImage = [open](SourcePtr source) -> Result<SourcePtr> {
            auto image = open(std::move(source));
            if (!image)
                return std::move(image).error();
            return SourcePtr(std::move(image).value());
        };
        if (auto readsFolder = vm.readsFolder)
            f.beside = [readsFolder](std::span<const char> head, const QString &) { return BesideFiles{readsFolder(head), {}}; };
        formats.push_back(std::move(f));
    }

    // Transparent like a disk image: its decrypted data is probed again (LVM, a filesystem).
    Format luks;
    luks.name = QStringLiteral("luks");
    luks.description = QStringLiteral("LUKS1 and LUKS2 encrypted volumes: key slots opened by libcryptsetup with a password, AES-XTS and AES-CBC(-ESSIV) sectors");
    luks.probe = [](const ProbeInput &in) { return probeLuks(in.head); };
    luks.openImage = [](SourcePtr source) -> Result<SourcePtr> {
        auto volume = LuksVolume::open(std::move(source));
        if (!volume)
            return std::move(volume).error();
        return SourcePtr(std::move(volume).value());
    };
    formats.push_back(std::move(luks));

    Format lvm;
    lvm.name = QStringLiteral("lvm2");
    lvm.description = QStringLiteral("LVM2 physical volumes: the volume group and its logical volumes (linear, striped, mirror/raid1 legs, thin volumes in thin pools)");
    lvm.probe = [](const ProbeInput &in) { return probeLvm(in.head); };
    lvm.openContainer = [](SourcePtr source) { return LvmContainer::open(std::move(source)); };
    formats.push_back(std::move(lvm));

    // Disk image formats we recognise but do not read: named and refused, never read as if their
    // own bytes were the virtual disk (qemu reads them; `cat --raw` gives the file's bytes).
    Format unread;
    unread.name = QStringLiteral("unread-images");
    unread.description = QStringLiteral("Parallels, Bochs, cloop, DMG, QED and VMware COWD images: recognised and refused by name");
    unread.probe = [](const ProbeInput &in) { return unreadImageFormat(*in.source, in.head, !in.quick).isEmpty() ? 0 : 95; };
    unread.openImage = [](SourcePtr source) -> Result<SourcePtr> {
        auto head = readHead(*source, 4096);
        const QString name = head ? unreadImageFormat(*source, std::span<const char>(head->constData(), size_t(head->size())), true) : QString();
        return Error::make(ErrorKind::Unsupported, source->name(),
                           QStringLiteral("a %1 disk image, which ArchiveScope does not read (qemu-img convert reads it; cat --raw gives the file's own bytes)").arg(name));
    };
    formats.push_back(std::move(unread));

    Format pxarFormat;
    pxarFormat.name = QStringLiteral("pxar");
    pxarFormat.description = QStringLiteral("Proxmox file archives, v1 and v2 split (.mpxar + .ppxar beside it)");
    pxarFormat.mimeTypes = {QStringLiteral("application/x-proxmox-pxar")};
    pxarFormat.suffixes = {QStringLiteral("pxar"), QStringLiteral("mpxar")};
    pxarFormat.probe = [](const ProbeInput &in) { return looksLikePxar(in.head) ? 90 : 0; };
    pxarFormat.openContainer = [](SourcePtr source) { return PxarContainer::open(std::move(source)); };
    pxarFormat.beside = [](std::span<const char>, const QString &path) { return BesideFiles{false, pxarPayloadPath(path)}; };
    formats.push_back(std::move(pxarFormat));

    Format ext;
    ext.name = QStringLiteral("ext");
    ext.description = QStringLiteral("ext2, ext3 and ext4 filesystems (our reader: extents, inline data, htree, meta_bg, revision 0)");
    ext.probe = [](const ProbeInput &in) { return in.quick ? 0 : probeExt(*in.source); };
    ext.openContainer = [](SourcePtr source) { return ExtContainer::open(std::move(source)); };
    formats.push_back(std::move(ext));

    Format xfs;
    xfs.name = QStringLiteral("xfs");
    xfs.description = QStringLiteral("XFS filesystems v4 and v5 (our reader: CRCs checked, every directory form, extent B-trees, bigtime, nrext64)");
    xfs.probe = [](const ProbeInput &in) { return probeXfs(in.head); };
    xfs.openContainer = [](SourcePtr source) { return XfsContainer::open(std::move(source)); };
    formats.push_back(std::move(xfs));

    Format udfFormat;
    udfFormat.name = QStringLiteral("udf");
    udfFormat.description = QStringLiteral("UDF 1.02 to 2.60 (our reader): DVD and Blu-ray images, Windows install ISOs, metadata and sparable partitions");
    udfFormat.mimeTypes = {QStringLiteral("application/x-cd-image"), QStringLiteral("application/x-iso9660-image")};
    udfFormat.suffixes = {QStringLiteral("iso"), QStringLiteral("udf")};
    udfFormat.probe = [](const ProbeInput &in) { return probeUdf(in.head); };
    udfFormat.openContainer = [](SourcePtr source) { return UdfContainer::open(std::move(source)); };
    formats.push_back(std::move(udfFormat));

    Format squashfsFormat;
    squashfsFormat.name = QStringLiteral("squashfs");
    squashfsFormat.description = QStringLiteral("squashfs 4.0 images: gzip, lzma, xz, lzo, lz4, zstd; fragments, sparse files (our reader); snaps, AppImages");
    squashfsFormat.mimeTypes = {QStringLiteral("application/vnd.squashfs"), QStringLiteral("application/vnd.snap"), QStringLiteral("application/vnd.appimage")};
    squashfsFormat.suffixes = {QStringLiteral("squashfs"), QStringLiteral("sfs"), QStringLiteral("snap"), QStringLiteral("AppImage")};
    squashfsFormat.probe = [](const ProbeInput &in) { return probeSquashfs(*in.source, in.head, in.quick); };
    squashfsFormat.openContainer = [](SourcePtr source) { return SquashfsContainer::open(std::move(source)); };
    formats.push_back(std::move(squashfsFormat));

    Format btrfsFormat;
    btrfsFormat.name = QStringLiteral("btrfs");
    btrfsFormat.description = QStringLiteral("btrfs on one device (our reader: subvolumes, zlib/lzo/zstd extents, single/DUP/RAID1 chunks, every checksum type)");
    btrfsFormat.probe = [](const ProbeInput &in) { return in.quick ? 0 : probeBtrfs(*in.source); };
    btrfsFormat.openContainer = [](SourcePtr source) { return BtrfsContainer::open(std::move(source)); };
    formats.push_back(std::move(btrfsFormat));

    Format filesystems;
    filesystems.name = QStringLiteral("filesystems");
    filesystems.description = QStringLiteral("filesystems in partitions and images, through The Sleuth Kit");
    filesystems.variants = {
        {QStringLiteral("fat"), QStringLiteral("FAT12, FAT16, FAT32 and exFAT filesystems (The Sleuth Kit)")},
        {QStringLiteral("ntfs"), QStringLiteral("NTFS filesystems (The Sleuth Kit)")},
        {QStringLiteral("hfs+"), QStringLiteral("HFS+ filesystems (The Sleuth Kit)")},
        {QStringLiteral("ufs"), QStringLiteral("UFS1/UFS2 filesystems (The Sleuth Kit)")},
    };
    filesystems.probe = [](const ProbeInput &in) { return in.quick ? 0 : probeTskFilesystem(*in.source); };
    filesystems.openContainer = [](SourcePtr source) { return TskContainer::open(std::move(source)); };
    formats.push_back(std::move(filesystems));

    Format partitions;
    partitions.name = QStringLiteral("partitions");
    partitions.description = QStringLiteral("raw disks with an MBR (primary, extended, logical) or GPT partition table");
    partitions.variants = {
        {QStringLiteral("mbr"), QStringLiteral("MBR partition tables: primary, extended and logical partitions (p1, p2, ... p5)")},
        {QStringLiteral("gpt"), QStringLiteral("GUID partition tables, CRC-checked, backup header as fallback")},
    };
    partitions.mimeTypes = {QStringLiteral("application/x-raw-disk-image")};
    partitions.suffixes = {QStringLiteral("img"), QStringLiteral("raw"), QStringLiteral("dd")};
    partitions.probe = [](const ProbeInput &in) { return probePartitionTable(in.head); };
    partitions.openContainer = [](SourcePtr source) { return PartitionContainer::open(std::move(source)); };
    formats.push_back(std::move(partitions));
    return formats;
}

} // namespace asc
