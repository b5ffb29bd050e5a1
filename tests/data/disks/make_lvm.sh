#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes lvm-gpt.raw.xz: a 64 MiB GPT disk laid out as a RHEL-style installer lays it out, by the
# real tools (sgdisk, lvm2, mke2fs, mkfs.xfs). Needs root and a loop device (lvm2 writes only to block
# devices); needs no device-mapper: volumes are made with activation off and their bytes placed
# where `lvs` says their extents are. The test command uses the committed result, not this.
#   p1  8 MiB ext4 "/boot"
#   p2  LVM physical volume of VG "rhel" (4 MiB extents):
#       root  320 MiB XFS (RHEL's default), two segments (extended after swap was made: not contiguous)
#       swap   4 MiB
#       home   8 MiB ext4
# Also lvm-pair-a.raw.xz: one PV of a two-disk VG (lvm-pair-a.missing-pv.txt: the other's UUID), and
# lvm-grown.raw.xz: a disk whose VG "grown" spans its two partitions (a disk enlarged and a partition
# added as a second PV): "data", ext4, has a segment on each (lvm-grown.files.tsv, .volumes.tsv).
# Truth written beside it: lvm-gpt.lvs.json (lvs --reportformat json), lvm-gpt.volumes.tsv
# (volume, bytes, sha256 of its mapped bytes), lvm-gpt.files.tsv (volume, path, size, sha256).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
loop=""
cleanup() {
    vgremove -f rhel >/dev/null 2>&1 || true
    vgremove -f pair >/dev/null 2>&1 || true
    vgremove -f grown >/dev/null 2>&1 || true
    [ -z "$loop" ] || losetup -d "$loop" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
lvm_quiet() { "$@" --driverloaded n 2>&1 | grep -v -e leaked -e 'Activation disabled' -e 'not zeroed' >&2 || true; }
export LVM_SUPPRESS_FD_WARNINGS=1
mib=1048576

# Contents: text like a server's, a file spanning many blocks, a symlink, an empty file.
tree() {
    d="$work/tree-$1"
    mkdir -p "$d/etc" "$d/var/log" "$d/usr/bin"
    printf '/dev/mapper/rhel-root / xfs defaults 0 0\n/dev/mapper/rhel-home /home ext4 defaults 0 0\n' >"$d/etc/fstab"
    printf 'server-%s.example.com\n' "$1" >"$d/etc/hostname"
    seq 1 60000 | sed "s/^/$1 line /" >"$d/var/log/messages"
    : >"$d/var/log/empty"
    ln -s ../../etc/hostname "$d/usr/bin/hostname-link"
    echo "$d"
}

truncate -s $((380 * mib)) "$work/disk.raw"
sgdisk -n 1:2048:+8M -t 1:8300 -c 1:boot -n 2:0:0 -t 2:8e00 -c 2:lvm "$work/disk.raw" >/dev/null
p2_start=$(sgdisk -i 2 "$work/disk.raw" | awk '/First sector/ {print $3}')
p2_end=$(sgdisk -i 2 "$work/disk.raw" | awk '/Last sector/ {print $3}')
p2_bytes=$(((p2_end - p2_start + 1) * 512))

boot=$(tree boot)
mke2fs -q -t ext4 -L boot -d "$boot" -E root_owner=0:0 "$work/boot.img" 8M >/dev/null
dd if="$work/boot.img" of="$work/disk.raw" bs=$mib seek=1 conv=notrunc status=none

truncate -s "$p2_bytes" "$work/pv.img"
loop=$(losetup -f --show "$work/pv.img")
lvm_quiet pvcreate -y "$loop"
lvm_quiet vgcreate -s 4M rhel "$loop"
lvm_quiet lvcreate -an -Zn -L 16M -n root rhel
lvm_quiet lvcreate -an -Zn -L 4M -n swap rhel
lvm_quiet lvextend -L 320M rhel/root
lvm_quiet lvcreate -an -Zn -L 8M -n home rhel

pe_start=$(pvs --driverloaded n --noheadings --units b --nosuffix -o pe_start "$loop" 2>/dev/null | tr -d ' ')
extent=$((4 * mib))
# Places a volume's image into the PV, segment by segment (lvs: "dev:first-last" per segment).
place() {
    lv=$1 img=$2
    lvs --driverloaded n --noheadings -o seg_start_pe,seg_pe_ranges "rhel/$lv" 2>/dev/null | while read -r le ranges; do
        first=${ranges#*:}
        first=${first%-*}
        last=${ranges##*-}
        count=$((last - first + 1))
        dd if="$img" of="$work/pv.img" bs=$extent skip="$le" count="$count" \
            oflag=seek_bytes seek=$((pe_start + first * extent)) conv=notrunc status=none
    done
}
root=$(tree root)
# mkfs.xfs fills a volume from a protofile (xfsprogs' proto.c format), as mke2fs -d from a folder.
python3 - "$root" "$work/root.proto" <<'PY'
import os, stat, sys
src, out = sys.argv[1], sys.argv[2]
lines = ["/dev/null", "0 0", "d--755 0 0"]
def walk(d, depth):
    for name in sorted(os.listdir(d)):
        p = os.path.join(d, name)
        st = os.lstat(p)
        pad = " " * depth
        perm = "%03o" % (st.st_mode & 0o777)
        if stat.S_ISLNK(st.st_mode):
            lines.append("%s%s l--%s 0 0 %s" % (pad, name, perm, os.readlink(p)))
        elif stat.S_ISDIR(st.st_mode):
            lines.append("%s%s d--%s 0 0" % (pad, name, perm))
            walk(p, depth + 1)
            lines.append(pad + "$")
        else:
            lines.append("%s%s ---%s 0 0 %s" % (pad, name, perm, p))
walk(src, 1)
lines.append("$")
open(out, "w").write("\n".join(lines) + "\n")
PY
truncate -s 320M "$work/root.img"
mkfs.xfs -q -f -L root -p "$work/root.proto" "$work/root.img"
home=$(tree home)
mke2fs -q -t ext4 -L home -d "$home" -E root_owner=0:0 "$work/home.img" 8M >/dev/null
yes swap | head -c $((4 * mib)) >"$work/swap.img"
place root "$work/root.img"
place swap "$work/swap.img"
place home "$work/home.img"

lvs --driverloaded n --reportformat json --units b -a -o lv_name,vg_name,lv_uuid,lv_size,segtype,seg_start_pe,seg_pe_ranges rhel 2>/dev/null >"$here/lvm-gpt.lvs.json"
losetup -d "$loop"
loop=""
dd if="$work/pv.img" of="$work/disk.raw" bs=512 seek="$p2_start" conv=notrunc status=none

{
    for lv in root swap home; do
        printf '%s\t%s\t%s\n' "$lv" "$(stat -c %s "$work/$lv.img")" "$(sha256sum <"$work/$lv.img" | cut -d' ' -f1)"
    done
} >"$here/lvm-gpt.volumes.tsv"
{
    for lv in boot root home; do
        d="$work/tree-$lv"
        (cd "$d" && find . -type f | sort | while read -r f; do
            printf '%s\t%s\t%s\t%s\n' "$lv" "${f#./}" "$(stat -c %s "$f")" "$(sha256sum <"$f" | cut -d' ' -f1)"
        done)
    done
} >"$here/lvm-gpt.files.tsv"
xz -9 -c "$work/disk.raw" >"$here/lvm-gpt.raw.xz"

# A volume group over two disks of which we keep one: "data" spans both, "local" lies on this one.
truncate -s $((12 * mib)) "$work/pv-a.img" "$work/pv-b.img"
loop=$(losetup -f --show "$work/pv-a.img")
loop_b=$(losetup -f --show "$work/pv-b.img")
lvm_quiet pvcreate -y "$loop" "$loop_b"
lvm_quiet vgcreate -s 4M pair "$loop" "$loop_b"
lvm_quiet lvcreate -an -Zn -L 4M -n local pair "$loop"
lvm_quiet lvcreate -an -Zn -L 12M -n data pair
pvs --driverloaded n --noheadings -o pv_uuid "$loop_b" 2>/dev/null | tr -d ' ' >"$here/lvm-pair-a.missing-pv.txt"
losetup -d "$loop_b"
losetup -d "$loop"
loop=""
xz -9 -c "$work/pv-a.img" >"$here/lvm-pair-a.raw.xz"

# Two partitions of one disk, one VG over both.
truncate -s $((40 * mib)) "$work/grown.raw"
sgdisk -n 1:2048:+16M -t 1:8e00 -n 2:0:+16M -t 2:8e00 "$work/grown.raw" >/dev/null
truncate -s $((16 * mib)) "$work/g1.img" "$work/g2.img"
loop=$(losetup -f --show "$work/g1.img")
loop_b=$(losetup -f --show "$work/g2.img")
lvm_quiet pvcreate -y "$loop" "$loop_b"
lvm_quiet vgcreate -s 4M grown "$loop"
lvm_quiet lvcreate -an -Zn -L 8M -n data grown
lvm_quiet vgextend grown "$loop_b"
lvm_quiet lvextend -L 20M grown/data "$loop_b"
grown_tree=$(tree grown)
mke2fs -q -t ext4 -L data -d "$grown_tree" -E root_owner=0:0 "$work/data.img" 20M >/dev/null
gpe=$(pvs --driverloaded n --noheadings --units b --nosuffix -o pe_start "$loop" 2>/dev/null | tr -d ' ')
lvs --driverloaded n --noheadings -o seg_start_pe,seg_pe_ranges grown/data 2>/dev/null | while read -r le ranges; do
    dev=${ranges%%:*}
    first=${ranges#*:}
    first=${first%-*}
    last=${ranges##*-}
    target="$work/g1.img"
    [ "$dev" = "$loop_b" ] && target="$work/g2.img"
    dd if="$work/data.img" of="$target" bs=$extent skip="$le" count=$((last - first + 1)) \
        oflag=seek_bytes seek=$((gpe + first * extent)) conv=notrunc status=none
done
losetup -d "$loop_b"
losetup -d "$loop"
loop=""
dd if="$work/g1.img" of="$work/grown.raw" bs=512 seek=2048 conv=notrunc status=none
g2_start=$(sgdisk -i 2 "$work/grown.raw" | awk '/First sector/ {print $3}')
dd if="$work/g2.img" of="$work/grown.raw" bs=512 seek="$g2_start" conv=notrunc status=none
printf 'data\t%s\t%s\n' "$(stat -c %s "$work/data.img")" "$(sha256sum <"$work/data.img" | cut -d' ' -f1)" >"$here/lvm-grown.volumes.tsv"
(cd "$grown_tree" && find . -type f | sort | while read -r f; do
    printf 'data\t%s\t%s\t%s\n' "${f#./}" "$(stat -c %s "$f")" "$(sha256sum <"$f" | cut -d' ' -f1)"
done) >"$here/lvm-grown.files.tsv"
xz -9 -c "$work/grown.raw" >"$here/lvm-grown.raw.xz"
ls -l "$here"/lvm-gpt.*
